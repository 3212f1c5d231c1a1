#pragma once
// A CSV file written row by row while a run goes on: the header at once, rows appended as they
// come, never the whole history in memory. Rows collect in a buffer that goes to the file in one
// write, whole rows only, at least every second of wall time and whenever it passes 1 MiB, so a
// run that is killed leaves a file of complete rows up to about its last second; a write that
// fails throws OutputError naming the file.

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace trackcosim::io {

class CsvStream {
 public:
  /// Creates (truncates) `file` and writes `header` as the first line.
  CsvStream(std::filesystem::path file, std::string_view header);
  /// Writes the rows still buffered (errors can no longer be reported here: call flush()).
  ~CsvStream();
  CsvStream(const CsvStream&) = delete;
  CsvStream& operator=(const CsvStream&) = delete;

  /// Appends one line; `row` has no line end.
  void write_row(std::string_view row);
  /// Pushes everything written so far to the file. Throws OutputError.
  void flush();

  const std::filesystem::path& file() const { return file_; }

 private:
  void check() const;

  std::filesystem::path file_;
  std::ofstream out_;
  std::string pending_;  ///< whole rows not yet written
  std::chrono::steady_clock::time_point last_flush_;
};

}  // namespace trackcosim::io
