#pragma once
// The terrain checkpoint written and read in slices (format version 3, docs/checkpoint-format.md):
// every rank writes its own consecutive run of each section's records and reads back only a
// block of them, so no rank ever holds the whole terrain, and the file's bytes do not depend on
// how many ranks wrote it or will read it.
//
// Writing: each rank passes the bodies (with their shapes) and warm-start entries it was given
// (DistributedTerrain sends every body to the rank of its gid's block first), sorted, with every
// gid above those of the ranks below it. Reading: rank r of n gets the bodies [B r / n, B (r+1) / n)
// of the file with their spheres, the planes and boxes of those bodies, and the warm-start entries
// [W r / n, W (r+1) / n). Either way the checksum is made of per-record terms any rank computes for
// its own records, combined over ranks.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "terrain_node/checkpoint/checkpoint_records.h"

namespace trackcosim::comm {
class RankGroup;
}

namespace trackcosim::terrain {

/// One rank's part of a checkpoint.
struct CheckpointSlice {
  std::uint64_t step = 0;   ///< the leader's is written; read: the file's
  double time = 0;
  std::string config_text;  ///< likewise
  PackedBodies bodies;      ///< sorted by gid (sort_packed)
  std::string warm;         ///< warm-start records (pack_warm), sorted by key
  /// Read: the file's counts of every body and of every warm-start entry.
  std::uint64_t file_bodies = 0, file_warm = 0;
};

/// The file and the ranks that share it: MPI-IO over a group (comm/collective_file.h), or this
/// process alone with plain file calls (tests and tools that run without MPI).
class CheckpointIo {
 public:
  virtual ~CheckpointIo() = default;
  virtual int rank() const = 0;
  virtual int ranks() const = 0;
  virtual std::uint64_t sum(std::uint64_t value) = 0;
  virtual std::uint64_t exclusive_sum(std::uint64_t value) = 0;
  /// The largest value of the ranks below this one (0 on rank 0).
  virtual std::uint64_t exclusive_max(std::uint64_t value) = 0;
  virtual std::uint64_t xor_all(std::uint64_t value) = 0;
  /// The lowest rank's non-empty message, on every rank (empty when none has one).
  virtual std::string first_error(const std::string& mine) = 0;
  virtual void write_at_all(std::uint64_t offset, std::string_view bytes) = 0;
  virtual std::string read_at_all(std::uint64_t offset, std::uint64_t n) = 0;
  virtual std::uint64_t size() = 0;
  /// Writing: the file becomes visible under its name (atomically), or the call throws.
  virtual void commit() = 0;
};

/// This process alone. Throws std::runtime_error "checkpoint <path>: cannot open: <reason>".
std::unique_ptr<CheckpointIo> open_checkpoint_alone(const std::filesystem::path& path, bool write);
/// Collective over `group`, the same errors on every rank.
std::unique_ptr<CheckpointIo> open_checkpoint_shared(const comm::RankGroup& group, const std::filesystem::path& path,
                                                     bool write);

/// Collective: writes every rank's slice and commits. Throws OutputError on every rank when the
/// file cannot be written.
void write_checkpoint_slices(CheckpointIo& io, CheckpointSlice slice, const std::filesystem::path& path);
/// Collective: this rank's block, checked (magic, version, sizes, checksum over all ranks,
/// consistency); the same std::runtime_error "checkpoint <path>: ..." on every rank when not.
CheckpointSlice read_checkpoint_block(CheckpointIo& io, const std::filesystem::path& path);

}  // namespace trackcosim::terrain
