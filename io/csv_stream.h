#pragma once
// A CSV file written row by row while a run goes on: the header at once, rows appended as they
// come, never the whole history in memory. Rows collect in a buffer that goes to the file in one
// write, whole rows only, at least every second of wall time and whenever it passes 1 MiB, so a
// run that is killed leaves a file of complete rows up to about its last second; a write that
// fails throws OutputError naming the file. A checkpoint keeps a stream's text() so that the
// resumed run's new stream can start with the same rows again (rows_after_header, write_lines).

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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
  /// Appends whole lines, each ending in '\n' (the rows a checkpoint kept).
  void write_lines(std::string_view lines);
  /// Pushes everything written so far to the file. Throws OutputError.
  void flush();
  /// Flushes and returns the file's text so far, header included. Throws OutputError.
  std::string text();

  const std::filesystem::path& file() const { return file_; }

 private:
  void check() const;

  std::filesystem::path file_;
  std::ofstream out_;
  std::string pending_;  ///< whole rows not yet written
  std::chrono::steady_clock::time_point last_flush_;
};

/// The data rows of an earlier run's `file` whose first field, a step number, is below
/// `first_step`: what a resumed run keeps (it may have timed steps it did not checkpoint). The
/// header and a last line without its line end (a run killed mid-write) are left out; a
/// missing file has none.
std::vector<std::string> rows_before_step(const std::filesystem::path& file, std::uint64_t first_step);

/// Opens `stream` on `file` (truncating it) with `header`; a resumed run (`resume`) first keeps
/// the earlier run's rows before `first_step` (rows_before_step) and writes them back.
void open_continued(std::optional<CsvStream>& stream, const std::filesystem::path& file, std::string_view header,
                    bool resume, std::uint64_t first_step);

/// The rows of `text`, a file's text() kept by a checkpoint, after its header line (empty text:
/// no rows). Throws std::invalid_argument naming `file` when that line is not `header`: the
/// checkpoint wrote other columns. Call it before opening the new stream, which truncates.
std::string_view rows_after_header(std::string_view text, std::string_view header, std::string_view file);

}  // namespace trackcosim::io
