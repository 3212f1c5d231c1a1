#pragma once
// One file that every rank of a group reads or writes at once, each its own byte ranges, with
// MPI-IO: what makes a checkpoint of 10^8 bodies possible without any rank holding all of it.
// A write goes to "<path>.tmp" and becomes <path> only when every rank's part is on disk
// (commit: sync, close, the leader renames and syncs the folder), so a job killed mid-write
// leaves the previous file untouched; a writer dropped before commit removes the .tmp file.
//
// Every collective call must be made by every rank of the group, in the same order, each with
// its own (possibly empty) range. An I/O failure on one rank does not throw there at once (the
// others would wait for it in the next collective): it is kept, the rank goes on with empty
// ranges, and commit() or check() throws it on every rank, naming the first failing rank's error.

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

#include "comm/rank_group.h"

namespace trackcosim::comm {

class CollectiveFile {
 public:
  enum class Mode { Read, Write };
  /// Collective. Opens <path> to read, or creates "<path>.tmp" to write (its folder must exist).
  /// Throws std::runtime_error "<path>: cannot open: <reason>" on every rank when it fails.
  CollectiveFile(const RankGroup& group, std::filesystem::path path, Mode mode);
  CollectiveFile(const CollectiveFile&) = delete;
  CollectiveFile& operator=(const CollectiveFile&) = delete;
  /// Closes; a write that was not committed removes its .tmp file.
  ~CollectiveFile();

  /// Collective: this rank's bytes at `offset`. Any size (split into pieces below 1 GiB, every
  /// rank making as many calls as the rank with the most).
  void write_at_all(std::uint64_t offset, std::span<const char> bytes);
  /// Collective: `n` bytes at `offset` into the returned string (fewer past the end of the file).
  std::string read_at_all(std::uint64_t offset, std::uint64_t n);
  /// The file's size in bytes (for reading).
  std::uint64_t size() const;
  /// Collective: throws on every rank the first rank's kept I/O error, if any rank has one.
  void check() const;
  /// Collective (writing): syncs, closes, renames "<path>.tmp" over <path> and syncs its folder.
  void commit();

  const std::filesystem::path& path() const { return path_; }

 private:
  void keep_error(const std::string& what, int code);
  std::uint64_t rounds(std::uint64_t bytes) const;

  RankGroup group_;
  std::filesystem::path path_, open_path_;
  Mode mode_;
  MPI_File file_ = MPI_FILE_NULL;
  bool committed_ = false;
  std::string error_;  ///< this rank's first I/O failure
};

/// Collective: the sum of `value` over the ranks below this one (0 on rank 0).
std::uint64_t exclusive_sum(const RankGroup& group, std::uint64_t value);
/// Collective: the largest `value` of the ranks below this one (0 on rank 0).
std::uint64_t exclusive_max(const RankGroup& group, std::uint64_t value);
/// Collective: the bitwise XOR of `value` over all ranks.
std::uint64_t xor_all(const RankGroup& group, std::uint64_t value);
/// Collective: the message of the lowest rank whose `mine` is not empty, on every rank; empty
/// when every rank's is. How a check made on each rank's own data fails on all ranks together.
std::string first_error(const RankGroup& group, const std::string& mine);

}  // namespace trackcosim::comm
