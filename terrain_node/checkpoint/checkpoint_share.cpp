#include "terrain_node/checkpoint/checkpoint_share.h"

#include <algorithm>

#include "comm/broadcast.h"
#include "comm/gather.h"
#include "terrain_node/checkpoint/checkpoint_slices.h"

namespace trackcosim::terrain {
namespace {

/// Every rank's items, concatenated in rank order, on every rank (small lists only).
template <class T>
std::vector<T> gather_everywhere(const comm::RankGroup& group, const std::vector<T>& mine) {
  std::vector<T> all = comm::gather_to_leader(group, mine);
  comm::broadcast(group, all);
  return all;
}

std::string gather_everywhere(const comm::RankGroup& group, const std::string& mine) {
  const std::vector<char> all = gather_everywhere(group, std::vector<char>(mine.begin(), mine.end()));
  return std::string(all.begin(), all.end());
}

}  // namespace

CheckpointShare read_checkpoint_share(const comm::RankGroup& group, const std::filesystem::path& path) {
  CheckpointSlice block;
  {
    const std::unique_ptr<CheckpointIo> io = open_checkpoint_shared(group, path, false);
    block = read_checkpoint_block(*io, path);
  }
  CheckpointShare share;
  share.step = block.step;
  share.time = block.time;
  share.config_text = block.config_text;
  share.warm = unpack_warm(block.warm);

  std::uint64_t bed_bodies = 0, bed_spheres = 0;
  std::vector<GidRun> runs;
  for (std::size_t i = 0; i < block.bodies.body_count(); ++i) {
    const PackedBodyView b = packed_body(block.bodies, i);
    const bool dynamic = gpu::is_dynamic(b.motion);
    if (b.motion != gpu::Motion::Kinematic) ++bed_bodies, bed_spheres += b.sphere_count;
    if (!runs.empty() && runs.back().dynamic == dynamic && runs.back().first + runs.back().count == b.gid)
      ++runs.back().count;
    else
      runs.push_back({b.gid, 1, dynamic});
  }
  share.bed_bodies = group.sum(bed_bodies);
  share.bed_spheres = group.sum(bed_spheres);
  // Runs that a block boundary cut in two join again.
  for (const GidRun& r : gather_everywhere(group, runs)) {
    if (!share.runs.empty() && share.runs.back().dynamic == r.dynamic &&
        share.runs.back().first + share.runs.back().count == r.first)
      share.runs.back().count += r.count;
    else
      share.runs.push_back(r);
  }
  const std::size_t n = block.bodies.body_count();
  std::vector<CheckpointShare::Block> mine;
  if (n > 0) mine.push_back({packed_body(block.bodies, 0).gid, packed_body(block.bodies, n - 1).gid + 1, group.rank()});
  share.blocks = gather_everywhere(group, mine);

  // Every rank holds the fixed and kinematic bodies: each block gives its own to all.
  const auto is_dynamic = [](const PackedBodyView& b) { return gpu::is_dynamic(b.motion); };
  const PackedBodies fixed = select_packed(block.bodies, [&](const PackedBodyView& b) { return !is_dynamic(b); });
  PackedBodies held = select_packed(block.bodies, is_dynamic);
  block.bodies = {};
  PackedBodies all_fixed;
  all_fixed.bodies = gather_everywhere(group, fixed.bodies);
  all_fixed.spheres = gather_everywhere(group, fixed.spheres);
  all_fixed.planes = gather_everywhere(group, fixed.planes);
  all_fixed.boxes = gather_everywhere(group, fixed.boxes);
  held.append(all_fixed);
  sort_packed(held);
  share.bodies = unpack_bodies(held, "checkpoint " + path.string());
  return share;
}

int block_rank(const CheckpointShare& share, GlobalId gid) {
  const auto after = std::upper_bound(share.blocks.begin(), share.blocks.end(), gid,
                                      [](GlobalId g, const CheckpointShare::Block& b) { return g < b.first; });
  if (after == share.blocks.begin()) return -1;
  const CheckpointShare::Block& b = *(after - 1);
  return gid < b.end ? b.rank : -1;
}

}  // namespace trackcosim::terrain
