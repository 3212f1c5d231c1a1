#include "comm/collective_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <stdexcept>


namespace trackcosim::comm {
namespace {

namespace fs = std::filesystem;

/// Below MPI's int counts, and small enough that a piece never needs a second buffer.
constexpr std::uint64_t kPieceBytes = std::uint64_t(1) << 30;
constexpr const char* kCollectiveBufferBytes = "4194304";  // 4 MiB

std::string mpi_reason(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  return std::string(text, static_cast<std::size_t>(length));
}

/// Best effort: a folder fsync makes the rename durable; some file systems refuse it.
void sync_folder(const fs::path& file) {
  const fs::path folder = file.parent_path().empty() ? fs::path(".") : file.parent_path();
  const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return;
  ::fsync(dir);
  ::close(dir);
}

}  // namespace

CollectiveFile::CollectiveFile(const RankGroup& group, fs::path path, Mode mode)
    : group_(group), path_(std::move(path)), mode_(mode) {
  open_path_ = mode == Mode::Write ? fs::path(path_.string() + ".tmp") : path_;
  const int amode = mode == Mode::Write ? (MPI_MODE_CREATE | MPI_MODE_WRONLY) : MPI_MODE_RDONLY;
  // A file left by a killed writer may be longer than this one: start from nothing.
  if (mode == Mode::Write && group_.leader()) ::unlink(open_path_.c_str());
  group_.barrier();
  // The ranks that gather the others' pieces before writing (aggregators) buffer up to this much
  // at a time: a bound on what a checkpoint adds to their memory, whatever the terrain's size.
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "cb_buffer_size", kCollectiveBufferBytes);
  const int code = MPI_File_open(group_.handle(), open_path_.c_str(), amode, info, &file_);
  MPI_Info_free(&info);
  // MPI_File_open is collective and fails on every rank alike, but say it once per rank anyway.
  std::string error;
  if (code != MPI_SUCCESS) error = path_.string() + ": cannot open" + (mode == Mode::Write ? " for writing" : "") +
                                   ": " + mpi_reason(code);
  if (mode == Mode::Read && code == MPI_SUCCESS) {
    // Open MPI opens a missing file without complaint on some file systems; a size tells.
    MPI_Offset bytes = 0;
    if (MPI_File_get_size(file_, &bytes) != MPI_SUCCESS) error = path_.string() + ": cannot open: no size";
  }
  error = first_error(group_, error);
  if (!error.empty()) {
    if (file_ != MPI_FILE_NULL) MPI_File_close(&file_);
    throw std::runtime_error(error);
  }
}

CollectiveFile::~CollectiveFile() {
  if (file_ != MPI_FILE_NULL) MPI_File_close(&file_);
  if (mode_ == Mode::Write && !committed_ && group_.leader()) ::unlink(open_path_.c_str());
}

void CollectiveFile::keep_error(const std::string& what, int code) {
  if (error_.empty()) error_ = path_.string() + ": " + what + ": " + mpi_reason(code);
}

std::uint64_t CollectiveFile::rounds(std::uint64_t bytes) const {
  return group_.max(static_cast<std::uint64_t>((bytes + kPieceBytes - 1) / kPieceBytes));
}

void CollectiveFile::write_at_all(std::uint64_t offset, std::span<const char> bytes) {
  const std::uint64_t n = error_.empty() ? bytes.size() : 0;
  for (std::uint64_t round = 0, total = rounds(n); round < total; ++round) {
    const std::uint64_t at = std::min(n, round * kPieceBytes), piece = std::min(kPieceBytes, n - at);
    MPI_Status status;
    const int code = MPI_File_write_at_all(file_, static_cast<MPI_Offset>(offset + at), bytes.data() + at,
                                           static_cast<int>(piece), MPI_BYTE, &status);
    if (code != MPI_SUCCESS) keep_error("cannot write", code);
  }
}

std::string CollectiveFile::read_at_all(std::uint64_t offset, std::uint64_t n) {
  std::string out(n, '\0');
  std::uint64_t got = 0;
  for (std::uint64_t round = 0, total = rounds(n); round < total; ++round) {
    const std::uint64_t at = std::min(n, round * kPieceBytes), piece = std::min(kPieceBytes, n - at);
    MPI_Status status;
    const int code = MPI_File_read_at_all(file_, static_cast<MPI_Offset>(offset + at), out.data() + at,
                                          static_cast<int>(piece), MPI_BYTE, &status);
    if (code != MPI_SUCCESS) {
      keep_error("cannot read", code);
      continue;
    }
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    got += static_cast<std::uint64_t>(count);
  }
  out.resize(got);
  return out;
}

std::uint64_t CollectiveFile::size() const {
  MPI_Offset bytes = 0;
  MPI_File_get_size(file_, &bytes);
  return static_cast<std::uint64_t>(bytes);
}

void CollectiveFile::check() const {
  const std::string error = first_error(group_, error_);
  if (!error.empty()) throw std::runtime_error(error);
}

void CollectiveFile::commit() {
  if (error_.empty()) {
    const int code = MPI_File_sync(file_);
    if (code != MPI_SUCCESS) keep_error("cannot sync", code);
  }
  MPI_File_close(&file_);
  check();
  std::string error;
  if (group_.leader()) {
    if (::rename(open_path_.c_str(), path_.c_str()) != 0)
      error = path_.string() + ": cannot rename " + open_path_.string() + " into place";
    else
      sync_folder(path_);
  }
  error = first_error(group_, error);
  if (!error.empty()) throw std::runtime_error(error);
  committed_ = true;
}

std::uint64_t exclusive_sum(const RankGroup& group, std::uint64_t value) {
  std::uint64_t below = 0;
  MPI_Exscan(&value, &below, 1, MPI_UINT64_T, MPI_SUM, group.handle());
  return group.rank() == 0 ? 0 : below;  // MPI leaves rank 0's result undefined
}

std::uint64_t exclusive_max(const RankGroup& group, std::uint64_t value) {
  std::uint64_t below = 0;
  MPI_Exscan(&value, &below, 1, MPI_UINT64_T, MPI_MAX, group.handle());
  return group.rank() == 0 ? 0 : below;
}

std::uint64_t xor_all(const RankGroup& group, std::uint64_t value) {
  std::uint64_t out = 0;
  MPI_Allreduce(&value, &out, 1, MPI_UINT64_T, MPI_BXOR, group.handle());
  return out;
}

std::string first_error(const RankGroup& group, const std::string& mine) {
  const int first = group.min(mine.empty() ? INT_MAX : group.rank());
  if (first == INT_MAX) return {};
  std::string message = group.rank() == first ? mine : std::string();
  std::uint64_t length = message.size();
  MPI_Bcast(&length, 1, MPI_UINT64_T, first, group.handle());
  message.resize(length);
  MPI_Bcast(message.data(), static_cast<int>(length), MPI_CHAR, first, group.handle());
  return message;
}

}  // namespace trackcosim::comm
