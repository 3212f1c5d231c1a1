#pragma once
// What one terrain rank takes from a checkpoint when a run starts from it: its block of the
// file's dynamic bodies (any block: DistributedTerrain then sends each body to the rank whose
// box holds it), every fixed and kinematic body (every rank holds those), its block of the
// warm-start entries, and the few whole-file facts the run's set-up needs. Nothing here grows
// with the terrain on one rank except the fixed bodies (walls, obstacles, proxies, and the
// particles a moving patch had stored: docs/checkpoint-format.md, "Reading in slices").

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "comm/rank_group.h"
#include "terrain_node/checkpoint/terrain_checkpoint.h"

namespace trackcosim::terrain {

/// A run of consecutive gids of one motion class in the file.
struct GidRun {
  GlobalId first = 0;
  std::uint64_t count = 0;
  bool dynamic = false;
};

struct CheckpointShare {
  std::uint64_t step = 0;
  double time = 0;
  std::string config_text;
  /// This rank's block of dynamic bodies and every non-dynamic body of the file, in gid order.
  gpu::BodySet bodies;
  std::vector<WarmStartEntry> warm;  ///< this rank's block of the warm-start entries
  /// Bodies and spheres of the bed over the whole file: all but the kinematic shoe proxies.
  std::uint64_t bed_bodies = 0, bed_spheres = 0;
  std::vector<GidRun> runs;  ///< the whole file's gids, in order
  /// The ranks whose block is not empty, with the gids [first, end) of their block, in gid order.
  struct Block {
    GlobalId first, end;
    int rank;
  };
  std::vector<Block> blocks;
};

/// Collective over `group`; the same std::runtime_error "checkpoint <path>: ..." on every rank
/// for a file that cannot be read (checkpoint_slices.h).
CheckpointShare read_checkpoint_share(const comm::RankGroup& group, const std::filesystem::path& path);

/// The rank whose block holds `gid` (share.blocks); -1 when none does.
int block_rank(const CheckpointShare& share, GlobalId gid);

}  // namespace trackcosim::terrain
