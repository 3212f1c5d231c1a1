// Input files read whole (io/input_file.h): a folder given where a file is expected is refused
// naming the path ("is a directory"), as a config, a heightmap image or an elevation grid,
// instead of the C++ library's "basic_filebuf::underflow error" that named nothing (issue 17
// item 7a); a missing file keeps its message.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "io/config_error.h"
#include "io/gray_image.h"
#include "io/input_file.h"
#include "io/json_fields.h"

namespace trackcosim::io {
namespace {

std::filesystem::path scratch(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "trackcosim_input_file_test";
  std::filesystem::create_directories(dir);
  return dir / name;
}

template <typename Read>
std::string refusal(Read read) {
  try {
    read();
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ConfigError";
  return {};
}

TEST(InputFile, ADirectoryIsRefusedNamingThePath) {
  const std::filesystem::path folder = scratch("heightmap.png");
  std::filesystem::create_directories(folder);
  const std::string expected = folder.string() + ": is a directory, not a file";
  EXPECT_EQ(refusal([&] { read_input_file(folder); }), expected);
  EXPECT_EQ(refusal([&] { read_gray_image(folder); }), expected);
  EXPECT_EQ(refusal([&] { load_json_document(folder); }), expected);
}

TEST(InputFile, AMissingFileIsRefusedNamingThePath) {
  const std::filesystem::path missing = scratch("no_such_file.json");
  std::filesystem::remove(missing);
  EXPECT_EQ(refusal([&] { read_input_file(missing); }), missing.string() + ": cannot open the file for reading");
}

TEST(InputFile, ReadsEveryByte) {
  const std::filesystem::path file = scratch("bytes.bin");
  std::string bytes(200'000, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 7);
  std::ofstream(file, std::ios::binary) << bytes;
  EXPECT_EQ(read_input_file(file), bytes);
  std::ofstream(scratch("empty.txt"), std::ios::binary).flush();
  EXPECT_EQ(read_input_file(scratch("empty.txt")), "");
}

}  // namespace
}  // namespace trackcosim::io
