#include "io/input_file.h"

#include <fstream>
#include <system_error>

#include "io/config_error.h"

namespace trackcosim::io {

std::string read_input_file(const std::filesystem::path& file) {
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(file, error);
  if (status.type() == std::filesystem::file_type::directory)
    throw ConfigError(file.string() + ": is a directory, not a file");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ConfigError(file.string() + ": cannot open the file for reading");
  std::string bytes;
  char buffer[1 << 16];
  // A failing read (the stream buffer throws in libstdc++) ends as badbit: istream::read catches it.
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) bytes.append(buffer, std::size_t(in.gcount()));
  if (in.bad()) throw ConfigError(file.string() + ": read error");
  return bytes;
}

}  // namespace trackcosim::io
