// DistributedTerrain::rebalance and hand_over: new cuts at the particle-count quantiles of the
// current positions, then every owned body, every stored particle of a moving patch and every
// solved contact's warm-start impulse goes to the rank that needs it under the new cuts. A
// collective step of its own, outside the solver loop; the bodies' states are moved as bits,
// so the run continues exactly as it would have. The construction (distributed_terrain_construction.cpp)
// uses the same cuts and hand-over of bodies.

#include <algorithm>
#include <limits>

#include "comm/gather.h"
#include "domain/balanced_cuts.h"
#include "terrain_node/distributed/body_records.h"
#include "terrain_node/distributed/distributed_terrain_state.h"

namespace trackcosim::terrain {
namespace {

constexpr std::size_t kBins = 1024;

Vec3 position_of(const BodyRecord& r) { return {r.position[0], r.position[1], r.position[2]}; }

}  // namespace

std::vector<real> global_cuts(const comm::RankGroup& group, const std::vector<Vec3>& owned, int axis, int parts,
                              real width, bool balance, const std::vector<real>& when_empty) {
  double range[2] = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  for (const Vec3& p : owned) {
    range[0] = std::min(range[0], double(axis_value(p, axis)));
    range[1] = std::min(range[1], -double(axis_value(p, axis)));
  }
  group.min_in_place(range);
  if (range[0] == std::numeric_limits<double>::infinity()) {  // no particle anywhere
    if (!when_empty.empty()) return when_empty;
    range[0] = range[1] = 0;
  }
  const real lo = real(range[0]), hi = std::max(real(-range[1]), lo + width);
  if (!balance) return domain::uniform_cuts(lo, hi, parts);
  std::vector<real> coordinate;
  for (const Vec3& p : owned) coordinate.push_back(axis_value(p, axis));
  domain::AxisHistogram h = domain::axis_histogram(coordinate, lo, hi, kBins);
  group.sum_in_place(h.counts);
  return domain::balanced_cuts(h, parts, width);
}

namespace {

/// The points within `margin` of the bounding box of `bodies` over all ranks (collective). The
/// margin keeps the contacts with walls and the floor, whose midpoints lie a radius outside the
/// bodies' centres.
std::vector<Vec3> within_extent_of(const comm::RankGroup& group, const std::vector<Vec3>& points,
                                   const std::vector<Vec3>& bodies, real margin) {
  // lowest[a] and -highest[a] of the bodies over all ranks: one min-reduction.
  double bound[6];
  std::fill(bound, bound + 6, std::numeric_limits<double>::infinity());
  for (const Vec3& b : bodies)
    for (int a = 0; a < 3; ++a) {
      bound[a] = std::min(bound[a], double(axis_value(b, a)));
      bound[a + 3] = std::min(bound[a + 3], -double(axis_value(b, a)));
    }
  group.min_in_place(bound);
  std::vector<Vec3> inside;
  for (const Vec3& p : points) {
    bool in = true;
    for (int a = 0; a < 3; ++a)
      in = in && double(axis_value(p, a)) >= bound[a] - margin && double(axis_value(p, a)) <= -bound[a + 3] + margin;
    if (in) inside.push_back(p);
  }
  return inside;
}

}  // namespace

BodyRecords send_to_owners(const comm::RankGroup& group, const BodyRecords& records,
                           const domain::Decomposition& next) {
  std::vector<std::vector<BodyRecord>> body_out(static_cast<std::size_t>(group.size()));
  std::vector<std::vector<SphereRecord>> sphere_out(body_out.size());
  for (std::size_t i = 0, first = 0; i < records.bodies.size(); first += records.bodies[i++].sphere_count) {
    const auto r = static_cast<std::size_t>(next.owner_of(position_of(records.bodies[i])));
    body_out[r].push_back(records.bodies[i]);
    sphere_out[r].insert(sphere_out[r].end(), records.spheres.begin() + static_cast<std::ptrdiff_t>(first),
                         records.spheres.begin() + static_cast<std::ptrdiff_t>(first + records.bodies[i].sphere_count));
  }
  BodyRecords mine;
  mine.bodies = comm::all_to_all(group, body_out);
  mine.spheres = comm::all_to_all(group, sphere_out);
  return mine;
}

BodyRecords send_to_owners(const comm::RankGroup& group, const gpu::BodySet& set,
                           const std::vector<std::uint32_t>& bodies, const domain::Decomposition& next) {
  const SphereIndex spheres(set);
  BodyRecords records;
  for (const std::uint32_t b : bodies) records.append(set, spheres, b);
  return send_to_owners(group, records, next);
}

void DistributedTerrain::rebalance() {
  const gpu::BodySet& cur = held_bodies();
  const SphereIndex spheres(cur);
  Handover h;
  for (std::uint32_t i = 0; i < cur.size(); ++i) {
    if (held_->local.holder[i] == kOnEveryRank) h.everywhere.push_back(i);
    if (held_->local.holder[i] == kOwnedHere) h.active.append(cur, spheres, i);
  }
  h.stored = std::move(held_->stored);
  hand_over(std::move(h), balance_);
}

void DistributedTerrain::hand_over(Handover h, bool move_cuts) {
  const gpu::BodySet& cur = held_bodies();
  std::vector<Vec3> active_position;
  for (const BodyRecord& r : h.active.bodies) active_position.push_back(position_of(r));
  const domain::GridShape grid = decomposition_.grid();
  const int parts[3] = {grid.px, grid.py, grid.pz};
  // The solved contacts (each on one rank) and their midpoints: the warm starts to hand over, and
  // with domain.balance_by = "contacts" what the cuts balance.
  std::vector<Vec3> midpoints;
  const std::vector<gpu::WarmStartImpulse> solved =
      held_->stepped ? solved_impulses(&midpoints) : std::vector<gpu::WarmStartImpulse>{};
  const bool by_contacts = balance_contacts_ && held_->stepped && move_cuts;
  // Only the contacts that stay in the solver count: those within the extent of the particles
  // that stay active (and a ghost width around it, for their contacts with walls and floor). A moving patch's first application takes half a settled bed out of the
  // solver; counting the whole bed's contacts put the cut in the middle of the bed, past the
  // patch, and left one rank all the work (the M113's and the excavator's first runs stepped
  // 2-3 times slower than the same state resumed, whose hand-over balanced the active particles).
  const std::vector<Vec3> balanced =
      by_contacts ? within_extent_of(group_, midpoints, active_position, ghost_width_) : active_position;
  std::vector<real> cuts[3];
  // The cuts follow the active particles (or their contacts); with none anywhere (a patch past
  // the bed) they stay.
  for (int a = 0; a < 3; ++a)
    if (parts[a] > 1)
      cuts[a] = move_cuts ? global_cuts(group_, balanced, a, parts[a], ghost_width_, true, decomposition_.cuts(a))
                          : decomposition_.cuts(a);
  domain::Decomposition next(grid, cuts[0], cuts[1], cuts[2]);

  const BodyRecords mine = send_to_owners(group_, h.active, next);
  BodyRecords stored = send_to_owners(group_, h.stored, next);
  sort_by_gid(stored);

  // Warm starts to every rank whose new box is near the contact (its next solver among them).
  // Before the first step (a restart) there is no contact list to place them by, only the
  // checkpoint's impulses each rank kept for its old box: then every rank gets all of them.
  std::vector<std::vector<gpu::WarmStartImpulse>> warm_out(static_cast<std::size_t>(ranks_));
  if (!held_->stepped) {
    warm_out.assign(warm_out.size(), system_->warm_start());
  } else {
    for (std::size_t c = 0; c < solved.size(); ++c)
      for (int r = 0; r < ranks_; ++r)
        if (next.distance_to_box(midpoints[c], r) <= ghost_width_) warm_out[static_cast<std::size_t>(r)].push_back(solved[c]);
  }
  const std::vector<gpu::WarmStartImpulse> warm = comm::all_to_all(group_, warm_out);

  use_decomposition(std::move(next));
  system_->replace_bodies(merge_bodies(cur, h.everywhere, {&mine, &h.fixed}));
  system_->merge_warm_start(warm);
  reload_held_bodies();
  held_->local.gid = held_->set.gid;
  held_->local.holder.assign(held_->set.size(), kOwnedHere);
  for (std::size_t i = 0; i < held_->set.size(); ++i)
    if (!dynamic(held_->set, i)) held_->local.holder[i] = kOnEveryRank;
  held_->stored = std::move(stored);
}

}  // namespace trackcosim::terrain
