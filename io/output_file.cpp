#include "io/output_file.h"

#include <cerrno>
#include <fstream>
#include <system_error>

namespace trackcosim::io {
namespace {

[[noreturn]] void cannot_write(const std::filesystem::path& file, int error) {
  const std::string reason = error != 0 ? std::generic_category().message(error) : "write failed";
  throw OutputError("cannot write " + file.string() + ": " + reason);
}

}  // namespace

void write_output_file(const std::filesystem::path& file, const std::function<void(std::ostream&)>& write) {
  errno = 0;
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) cannot_write(file, errno);
  write(out);
  out.close();
  if (!out) cannot_write(file, errno);
}

void create_output_folder(const std::filesystem::path& folder) {
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) throw OutputError("cannot create output folder " + folder.string() + ": " + error.message());
  if (!std::filesystem::is_directory(folder))
    throw OutputError("cannot create output folder " + folder.string() + ": a file of that name is in the way");
}

}  // namespace trackcosim::io
