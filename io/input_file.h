#pragma once
// Input files read whole (configs, heightmap images, elevation grids and meshes). A path that
// names a folder opens without complaint on Linux and then fails on the first read with the C++
// library's "basic_filebuf::underflow error", which names neither the file nor the key; every
// input goes through here instead, so the message says which file and what is wrong with it.

#include <filesystem>
#include <string>

namespace trackcosim::io {

/// The file's bytes. Throws ConfigError "<file>: is a directory, not a file", "<file>: cannot
/// open the file for reading" (missing or unreadable) or "<file>: read error".
std::string read_input_file(const std::filesystem::path& file);

}  // namespace trackcosim::io
