// Stages 4 to 6 of the terrain step as they concern the split of the contacts over ranks
// (contact_ownership.h).

#include "terrain_node/distributed/contact_ownership.h"

#include <algorithm>
#include <utility>

#include "comm/mpi_solver_exchange.h"

namespace trackcosim::terrain {

void ContactOwnership::plan(gpu::RigidBodySystem& system, const HeldBodies& held, const GhostExchange& ghosts,
                            const RankPlace& place) {
  split_ = place.split();
  near_ = {};
  plan_ = {};
  if (!split_) return;
  // Only the contacts near this rank's faces or at its ghosts cross to the host to be planned;
  // the others are solved here and stay on the device.
  const domain::Aabb box = place.decomposition.box(place.rank);
  std::vector<std::uint32_t> near_index;
  near_ = system.contacts_near_faces(box.lo, box.hi, place.ghost_width, ghosts.ghost_gids(), near_index);
  plan_ = plan_partition(near_, near_index, held.local, place.decomposition, place.rank, place.exchange.neighbours(),
                         ghosts.sends());
  system.drop_contacts(plan_.dropped);
}

void ContactOwnership::solve(gpu::RigidBodySystem& system, HeldBodies& held, const RankPlace& place,
                             ExchangeStats& stats) {
  if (!split_) {
    system.solve();
    held.solved = {system.contact_count(), {}};
    return;
  }
  // The solver exchanges the ghosts' contact counts (the Jacobi split) before its iterations.
  comm::MpiSolverExchange solver_exchange(place.exchange, plan_.counts);
  system.solve(&plan_.partition, &solver_exchange);
  stats.solver_seconds = solver_exchange.seconds();
  stats.reduction_seconds = solver_exchange.reduction_seconds();
  stats.reductions = solver_exchange.reductions();
  held.solved = {system.contact_count(), std::move(plan_.partition.solved_elsewhere)};
}

void ContactOwnership::hand_over_warm_start(gpu::RigidBodySystem& system, const HeldBodies& held,
                                            const RankPlace& place) {
  const std::vector<int>& neighbours = place.exchange.neighbours();
  if (!split_ || neighbours.empty()) return;
  const domain::Aabb box = place.decomposition.box(place.rank);
  std::vector<std::vector<std::uint32_t>> chosen(neighbours.size());
  std::vector<std::uint32_t> all;  // kept indices
  for (std::uint32_t r = 0; r < near_.size(); ++r) {
    const std::uint32_t i = plan_.kept_index[r];
    if (i == kDropped || !held.solved.here(i)) continue;
    const Vec3 m = contact_midpoint(near_, r);
    // Far from every face of our box, no neighbour box is near (and the contact is not in
    // `near_` unless it touches a ghost).
    const real inside = std::min({m.x - box.lo.x, box.hi.x - m.x, m.y - box.lo.y, box.hi.y - m.y, m.z - box.lo.z,
                                  box.hi.z - m.z});
    if (inside > place.ghost_width) continue;
    bool any = false;
    for (std::size_t k = 0; k < neighbours.size(); ++k)
      if (place.decomposition.distance_to_box(m, neighbours[k]) <= place.ghost_width) {
        chosen[k].push_back(static_cast<std::uint32_t>(all.size()));
        any = true;
      }
    if (any) all.push_back(i);
  }
  const std::vector<gpu::WarmStartImpulse> entries = system.warm_start(all);
  std::vector<std::vector<gpu::WarmStartImpulse>> out(neighbours.size()), in;
  for (std::size_t k = 0; k < neighbours.size(); ++k)
    for (const std::uint32_t e : chosen[k]) out[k].push_back(entries[e]);
  place.exchange.exchange_sized(out, in, comm::ExchangeTag::WarmStart);
  std::vector<gpu::WarmStartImpulse> received;
  for (const auto& v : in) received.insert(received.end(), v.begin(), v.end());
  system.merge_warm_start(received);
}

}  // namespace trackcosim::terrain
