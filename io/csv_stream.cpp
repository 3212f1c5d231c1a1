#include "io/csv_stream.h"

#include <cerrno>
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

void CsvStream::flush() {
  out_.write(pending_.data(), static_cast<std::streamsize>(pending_.size()));
  out_.flush();
  check();
  pending_.clear();
  last_flush_ = std::chrono::steady_clock::now();
}

void CsvStream::check() const {
  if (out_) return;
  const std::string reason = errno != 0 ? std::generic_category().message(errno) : "write failed";
  throw OutputError("cannot write " + file_.string() + ": " + reason);
}

}  // namespace trackcosim::io
