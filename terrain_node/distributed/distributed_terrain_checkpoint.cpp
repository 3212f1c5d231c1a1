// DistributedTerrain and its checkpoint (docs/checkpoint-format.md, "Writing in slices" and
// "Reading in slices"): no rank ever holds more than its share of the file.
//
// Writing: the file's records are in gid order, so every body goes first to the rank of its
// gid's block (gids are dense from 0: block r is [G r / n, G (r+1) / n) of the G gids), with its
// warm-start entries by their first gid; then each rank writes its run of each section.
// Reading (the constructor): each rank takes a block of the file (CheckpointShare), the
// construction sends every body to the rank whose box holds it, and each warm-start entry goes,
// in three hops, to the ranks that held it before the stop: to the block of its body A, which
// knows A's position, to the block of body B, which knows B's, then to every rank whose box both
// bodies are near.

#include <algorithm>
#include <cstring>
#include <numeric>
#include <tuple>

#include "comm/gather.h"
#include "domain/aabb.h"
#include "terrain_node/checkpoint/checkpoint_share.h"
#include "terrain_node/checkpoint/checkpoint_slices.h"
#include "terrain_node/distributed/distributed_terrain.h"
#include "terrain_node/distributed/distributed_terrain_state.h"

namespace trackcosim::terrain {
namespace {

/// Sends each record of sorted `packed` to rank block_of(its gid), kind by kind, straight from
/// the buffer (block_of grows with the gid, so each rank's records lie together), freeing each
/// kind once sent; returns what this rank receives, sorted. Peak: about two shares of records.
template <class BlockOf>
PackedBodies exchange_packed(const comm::RankGroup& group, PackedBodies& packed, BlockOf block_of) {
  const auto exchange = [&](std::string& records, std::size_t bytes) {
    std::vector<std::uint64_t> send(static_cast<std::size_t>(group.size()), 0);
    for (std::size_t at = 0; at < records.size(); at += bytes) {
      gpu::GlobalId gid;
      std::memcpy(&gid, records.data() + at, sizeof gid);
      send[static_cast<std::size_t>(block_of(gid))] += bytes;
    }
    std::string in = comm::all_to_all_bytes(group, records, send);
    std::string().swap(records);
    return in;
  };
  PackedBodies in;
  in.bodies = exchange(packed.bodies, kBodyRecordBytes);
  in.spheres = exchange(packed.spheres, kSphereRecordBytes);
  in.planes = exchange(packed.planes, kPlaneRecordBytes);
  in.boxes = exchange(packed.boxes, kBoxRecordBytes);
  sort_packed(in);
  return in;
}

bool key_less(const WarmStartEntry& l, const WarmStartEntry& r) {
  return std::tie(l.gid_a, l.gid_b, l.shape_a, l.shape_b) < std::tie(r.gid_a, r.gid_b, r.shape_a, r.shape_b);
}

/// A warm-start entry on its way to the ranks that need it, with what is known of its bodies.
struct RoutedWarm {
  WarmStartEntry entry;
  Vec3 at[2];            ///< positions of bodies A and B, once known
  std::uint8_t fixed[2]; ///< the body is held by every rank (not dynamic): near every box
};

}  // namespace

void DistributedTerrain::write_checkpoint(const std::filesystem::path& path, const std::string& config_text) const {
  const gpu::BodySet& s = held_bodies();
  std::vector<std::uint32_t> mine;
  for (std::uint32_t i = 0; i < s.size(); ++i)
    if (held_->local.holder[i] == kOwnedHere || (held_->local.holder[i] == kOnEveryRank && leader())) mine.push_back(i);
  PackedBodies packed = pack_bodies(s, mine);
  if (!held_->stored.bodies.empty()) {
    // Stored particles of a moving patch go in as fixed: at rest where they were left, until a
    // restarted patch sorts them again (docs/moving-patch.md).
    BodyRecords stored = held_->stored;
    for (BodyRecord& r : stored.bodies) set_at_rest(r, gpu::Motion::Fixed);
    const gpu::BodySet as_set = merge_bodies(gpu::BodySet{}, {}, {&stored});
    std::vector<std::uint32_t> all(as_set.size());
    std::iota(all.begin(), all.end(), 0u);
    packed.append(pack_bodies(as_set, all));
  }
  // Dense gids from 0: equal gid blocks are equal shares of the terrain.
  gpu::GlobalId top = 0;
  for (std::size_t i = 0; i < packed.body_count(); ++i) top = std::max(top, packed_body(packed, i).gid + 1);
  const std::uint64_t gids = group_.max(static_cast<std::uint64_t>(top));
  // gid x ranks may pass 2^64 (GCC's 128-bit integers; __extension__ keeps -Wpedantic quiet).
  __extension__ typedef unsigned __int128 Wide;
  const auto block_of = [&](gpu::GlobalId gid) {
    return static_cast<int>(static_cast<Wide>(gid) * static_cast<unsigned>(ranks_) / std::max<std::uint64_t>(gids, 1));
  };
  CheckpointSlice slice;
  slice.step = step_count();
  slice.time = time();
  slice.config_text = config_text;
  sort_packed(packed);
  slice.bodies = exchange_packed(group_, packed, block_of);

  std::vector<std::vector<WarmStartEntry>> warm_out(static_cast<std::size_t>(ranks_));
  for (const gpu::WarmStartImpulse& e : solved_impulses(nullptr))
    warm_out[static_cast<std::size_t>(block_of(e.gid_a))].push_back(checkpoint_entry(e));
  std::vector<WarmStartEntry> warm = comm::all_to_all(group_, warm_out);
  std::sort(warm.begin(), warm.end(), key_less);
  slice.warm = pack_warm(warm);
  const std::unique_ptr<CheckpointIo> io = open_checkpoint_shared(group_, path, true);
  write_checkpoint_slices(*io, std::move(slice), path);
}

void DistributedTerrain::take_warm_start(const CheckpointShare& share) {
  const gpu::BodySet& file = share.bodies;  // this rank's block of dynamic bodies, and every fixed one
  auto fill = [&](RoutedWarm& w, int end) {
    const gpu::GlobalId gid = end == 0 ? w.entry.gid_a : w.entry.gid_b;
    const std::uint32_t i = index_of(file.gid, gid);
    if (i < file.size() && file.gid[i] == gid) {
      w.fixed[end] = !dynamic(file, i);
      w.at[end] = position(file, i);
    }
  };
  auto to_block_of = [&](const std::vector<RoutedWarm>& items, int end) {
    std::vector<std::vector<RoutedWarm>> out(static_cast<std::size_t>(ranks_));
    for (const RoutedWarm& w : items) {
      const int r = block_rank(share, end == 0 ? w.entry.gid_a : w.entry.gid_b);
      if (r >= 0) out[static_cast<std::size_t>(r)].push_back(w);  // a body the file lacks: the entry is dropped
    }
    std::vector<RoutedWarm> in = comm::all_to_all(group_, out);
    for (RoutedWarm& w : in) fill(w, end);
    return in;
  };
  std::vector<RoutedWarm> items;
  for (const WarmStartEntry& e : share.warm) items.push_back({e, {{0, 0, 0}, {0, 0, 0}}, {0, 0}});
  items = to_block_of(to_block_of(items, 0), 1);
  // Keep the impulses of contacts a rank may solve or need: both bodies near its box.
  std::vector<std::vector<RoutedWarm>> out(static_cast<std::size_t>(ranks_));
  for (const RoutedWarm& w : items)
    for (int r = 0; r < ranks_; ++r) {
      const domain::Aabb box = decomposition_.box(r);
      auto near = [&](int end) { return w.fixed[end] || domain::distance_to(box, w.at[end]) <= ghost_width_; };
      if (near(0) && near(1)) out[static_cast<std::size_t>(r)].push_back(w);
    }
  std::vector<gpu::WarmStartImpulse> warm;
  for (const RoutedWarm& w : comm::all_to_all(group_, out))
    warm.push_back(solver_impulse(w.entry));
  std::sort(warm.begin(), warm.end(), [](const gpu::WarmStartImpulse& l, const gpu::WarmStartImpulse& r) {
    return std::tie(l.gid_a, l.gid_b, l.shape_a, l.shape_b) < std::tie(r.gid_a, r.gid_b, r.shape_a, r.shape_b);
  });
  system_->merge_warm_start(warm);
}

}  // namespace trackcosim::terrain
