#include "io/csv_stream.h"

#include <cerrno>
#include <sstream>
#include <stdexcept>
#include <cinttypes>
#include <cstdio>
#include <system_error>

#include "io/output_file.h"

namespace trackcosim::io {
namespace {

constexpr std::chrono::seconds kFlushEvery{1};
constexpr std::size_t kFlushBytes = std::size_t{1} << 20;

}  // namespace

CsvStream::CsvStream(std::filesystem::path file, std::string_view header)
    : file_(std::move(file)), last_flush_(std::chrono::steady_clock::now()) {
  errno = 0;
  out_.open(file_, std::ios::binary | std::ios::trunc);
  check();
  write_row(header);
  flush();
}

CsvStream::~CsvStream() { out_.write(pending_.data(), static_cast<std::streamsize>(pending_.size())); }

void CsvStream::write_row(std::string_view row) {
  pending_.append(row);
  pending_ += '\n';
  if (pending_.size() >= kFlushBytes || std::chrono::steady_clock::now() - last_flush_ >= kFlushEvery) flush();
}

void CsvStream::write_lines(std::string_view lines) {
  pending_.append(lines);
  if (!pending_.empty() && pending_.back() != '\n') pending_ += '\n';
  flush();
}

void CsvStream::flush() {
  errno = 0;  // the reason check() reports is this write's
  out_.write(pending_.data(), static_cast<std::streamsize>(pending_.size()));
  out_.flush();
  check();
  pending_.clear();
  last_flush_ = std::chrono::steady_clock::now();
}

std::string CsvStream::text() {
  flush();
  std::ifstream in(file_, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) throw OutputError("cannot read back " + file_.string());
  return text.str();
}

void CsvStream::check() const {
  if (out_) return;
  const std::string reason = errno != 0 ? std::generic_category().message(errno) : "write failed";
  throw OutputError("cannot write " + file_.string() + ": " + reason);
}

std::vector<std::string> rows_before_step(const std::filesystem::path& file, std::uint64_t first_step) {
  std::ifstream in(file, std::ios::binary);
  std::vector<std::string> kept;
  std::string line;
  for (bool header = true; std::getline(in, line); header = false) {
    if (header || in.eof()) continue;  // eof: the last line had no line end
    std::uint64_t step = 0;
    if (std::sscanf(line.c_str(), "%" SCNu64, &step) == 1 && step < first_step) kept.push_back(line);
  }
  return kept;
}

std::string_view rows_after_header(std::string_view text, std::string_view header, std::string_view file) {
  if (text.empty()) return {};
  if (text.size() <= header.size() || text.substr(0, header.size()) != header || text[header.size()] != '\n')
    throw std::invalid_argument("the checkpoint's " + std::string(file) + " columns are not this run's");
  return text.substr(header.size() + 1);
}

void open_continued(std::optional<CsvStream>& stream, const std::filesystem::path& file, std::string_view header,
                    bool resume, std::uint64_t first_step) {
  const std::vector<std::string> kept = resume ? rows_before_step(file, first_step) : std::vector<std::string>{};
  stream.emplace(file, header);
  for (const std::string& row : kept) stream->write_row(row);
}

}  // namespace trackcosim::io
