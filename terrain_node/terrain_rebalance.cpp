// DistributedTerrain::rebalance: new cuts at the particle-count quantiles of the current
// positions, then every owned body and every solved contact's warm-start impulse goes to the
// rank that needs it under the new cuts. A collective step of its own, outside the solver loop;
// the bodies' states are moved as bits, so the run continues exactly as it would have.

#include <algorithm>
#include <limits>

#include "comm/gather.h"
#include "domain/balanced_cuts.h"
#include "terrain_node/body_records.h"
#include "terrain_node/distributed_terrain_state.h"

namespace trackcosim::terrain {
namespace {

constexpr std::size_t kBins = 1024;

}  // namespace

std::vector<real> global_cuts(MPI_Comm comm, const std::vector<Vec3>& owned, int axis, int parts, real width,
                              bool balance) {
  double range[2] = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  for (const Vec3& p : owned) {
    range[0] = std::min(range[0], double(axis_value(p, axis)));
    range[1] = std::min(range[1], -double(axis_value(p, axis)));
  }
  MPI_Allreduce(MPI_IN_PLACE, range, 2, MPI_DOUBLE, MPI_MIN, comm);
  if (range[0] == std::numeric_limits<double>::infinity()) range[0] = range[1] = 0;  // no particle anywhere
  const real lo = real(range[0]), hi = std::max(real(-range[1]), lo + width);
  if (!balance) return domain::uniform_cuts(lo, hi, parts);
  std::vector<real> coordinate;
  for (const Vec3& p : owned) coordinate.push_back(axis_value(p, axis));
  domain::AxisHistogram h = domain::axis_histogram(coordinate, lo, hi, kBins);
  MPI_Allreduce(MPI_IN_PLACE, h.counts.data(), static_cast<int>(h.counts.size()), MPI_UINT64_T, MPI_SUM, comm);
  return domain::balanced_cuts(h, parts, width);
}

BodyRecords send_to_owners(MPI_Comm comm, const gpu::BodySet& set, const std::vector<std::uint32_t>& bodies,
                           const domain::Decomposition& next) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  const SphereIndex spheres(set);
  std::vector<BodyRecords> out(static_cast<std::size_t>(ranks));
  for (const std::uint32_t b : bodies) out[static_cast<std::size_t>(next.owner_of(position(set, b)))].append(set, spheres, b);
  std::vector<std::vector<BodyRecord>> body_out(out.size());
  std::vector<std::vector<SphereRecord>> sphere_out(out.size());
  for (std::size_t r = 0; r < out.size(); ++r) {
    body_out[r] = std::move(out[r].bodies);
    sphere_out[r] = std::move(out[r].spheres);
  }
  BodyRecords mine;
  mine.bodies = comm::all_to_all(comm, body_out);
  mine.spheres = comm::all_to_all(comm, sphere_out);
  return mine;
}

void DistributedTerrain::rebalance() {
  const gpu::BodySet& cur = held_->set;
  std::vector<std::uint32_t> owned, everywhere;
  std::vector<Vec3> owned_position;
  for (std::uint32_t i = 0; i < cur.size(); ++i) {
    if (held_->local.holder[i] == kOnEveryRank) everywhere.push_back(i);
    if (held_->local.holder[i] != kOwnedHere) continue;
    owned.push_back(i);
    owned_position.push_back(position(cur, i));
  }
  const domain::GridShape grid = decomposition_.grid();
  const int parts[3] = {grid.px, grid.py, grid.pz};
  std::vector<real> cuts[3];
  for (int a = 0; a < 3; ++a)
    if (parts[a] > 1)
      cuts[a] = balance_ ? global_cuts(comm_, owned_position, a, parts[a], ghost_width_, true) : decomposition_.cuts(a);
  domain::Decomposition next(grid, cuts[0], cuts[1], cuts[2]);

  BodyRecords mine = send_to_owners(comm_, cur, owned, next);

  // Warm starts to every rank whose new box is near the contact (its next solver among them).
  std::vector<Vec3> midpoints;
  const std::vector<gpu::WarmStartImpulse> solved = solved_impulses(&midpoints);
  std::vector<std::vector<gpu::WarmStartImpulse>> warm_out(static_cast<std::size_t>(ranks_));
  for (std::size_t c = 0; c < solved.size(); ++c)
    for (int r = 0; r < ranks_; ++r)
      if (next.distance_to_box(midpoints[c], r) <= ghost_width_) warm_out[static_cast<std::size_t>(r)].push_back(solved[c]);
  const std::vector<gpu::WarmStartImpulse> warm = comm::all_to_all(comm_, warm_out);

  use_decomposition(std::move(next));
  system_->replace_bodies(merge_bodies(cur, everywhere, {&mine}));
  system_->merge_warm_start(warm);
  held_->set = system_->bodies();
  held_->local.gid = held_->set.gid;
  held_->local.holder.assign(held_->set.size(), kOwnedHere);
  for (std::size_t i = 0; i < held_->set.size(); ++i)
    if (!dynamic(held_->set, i)) held_->local.holder[i] = kOnEveryRank;
}

}  // namespace trackcosim::terrain
