#pragma once
// Output files fail loudly: a missing folder, a read-only mount or a full disk is reported with
// the path and the system's reason, never left behind as a silently truncated file.

#include <filesystem>
#include <functional>
#include <ostream>
#include <stdexcept>

namespace trackcosim::io {

class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Creates (or truncates) `file`, lets `write` fill the stream, and checks that every byte got
/// out. Throws OutputError "cannot write <file>: <reason>".
void write_output_file(const std::filesystem::path& file, const std::function<void(std::ostream&)>& write);

/// Creates `folder` and its parents if needed. Throws OutputError naming the folder.
void create_output_folder(const std::filesystem::path& folder);

}  // namespace trackcosim::io
