#pragma once
// The terrain checkpoint: every body (all ranks merged, increasing gid, with its shapes) and the
// warm-start impulses of the last step's contacts, in one binary file that does not depend on
// how many ranks wrote it. A run restarts from it on any rank count and continues exactly as it
// would have without the stop. This is serialization only: gathering the ranks' state into one
// TerrainCheckpoint (and handing it back out on restart) is the terrain node's job.
// Byte layout, versioning and error messages: docs/checkpoint-format.md.

#include <cstdint>
#include <filesystem>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu/dynamics/body_set.h"

namespace trackcosim::terrain {

using gpu::BoxShape;
using gpu::GlobalId;
using gpu::PlaneShape;
using gpu::ShapeIndex;

/// One contact's impulses kept for the next step's warm start: key (gid_a < gid_b, shape
/// indices), the world-frame impulse body B received [N s] and, with rolling resistance, the
/// rolling impulse rho_u u + rho_w w (gpu::WarmStartImpulse::rolling_on_b; zero without it, and
/// zero when read from a version 2 file, which has no field for it).
struct WarmStartEntry {
  GlobalId gid_a, gid_b;
  ShapeIndex shape_a, shape_b;
  Vec3 impulse_on_b;
  Vec3 rolling_on_b{0, 0, 0};
};
// It travels between ranks as it is (the restart's warm-start routing).
static_assert(std::is_trivially_copyable_v<WarmStartEntry> && sizeof(WarmStartEntry) == 72);

struct TerrainCheckpoint {
  std::uint64_t step = 0;   ///< steps taken
  double time = 0;          ///< simulated time [s]
  std::string config_text;  ///< the resolved config JSON the run used (informational; may be empty)
  gpu::BodySet bodies;      ///< every body (all ranks merged), increasing gid, with all shapes
  std::vector<WarmStartEntry> warm_start;  ///< sorted by key
};

/// Writes `path` atomically: to "<path>.tmp" first, fsync'ed, then renamed over `path`, so a
/// crash never leaves a half-written checkpoint under the real name. Throws std::runtime_error
/// (OutputError) naming the path on I/O failure, std::invalid_argument when the BodySet's
/// vectors disagree in length.
void write_checkpoint(const std::filesystem::path& path, const TerrainCheckpoint& checkpoint);

/// Reads a checkpoint; the BodySet comes back rebuilt through its public add_* calls, so its
/// shape counters continue where the writer's did. Throws std::runtime_error naming the path
/// and the problem: not a checkpoint (magic), unsupported version (found vs supported),
/// truncated (expected vs found bytes), checksum mismatch, inconsistent counts.
TerrainCheckpoint read_checkpoint(const std::filesystem::path& path);

}  // namespace trackcosim::terrain
