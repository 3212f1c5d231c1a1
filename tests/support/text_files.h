#pragma once
// For tests that read the files a run wrote: whole files, lines, CSV fields.

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace trackcosim::test {

inline std::string read_file(const std::filesystem::path& file) {
  std::ostringstream text;
  text << std::ifstream(file).rdbuf();
  return text.str();
}

inline std::vector<std::string> read_lines(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

/// The comma-separated fields of one CSV line (no quoting: our files have none).
inline std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out(1);
  for (const char ch : line) {
    if (ch == ',') out.emplace_back();
    else out.back().push_back(ch);
  }
  return out;
}

}  // namespace trackcosim::test
