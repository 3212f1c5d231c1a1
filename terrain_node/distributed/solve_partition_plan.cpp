#include "terrain_node/distributed/solve_partition_plan.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace trackcosim::terrain {
namespace {

std::uint32_t local_index(const LocalBodies& bodies, gpu::GlobalId gid) {
  const auto it = std::lower_bound(bodies.gid.begin(), bodies.gid.end(), gid);
  if (it == bodies.gid.end() || *it != gid)
    throw std::logic_error("contact refers to gid " + std::to_string(gid) + ", which this rank does not hold");
  return static_cast<std::uint32_t>(it - bodies.gid.begin());
}

template <class T>
void concatenate(const std::vector<std::vector<T>>& parts, std::vector<T>& out, std::vector<std::size_t>& sizes) {
  out.clear();
  sizes.clear();
  for (const auto& p : parts) {
    out.insert(out.end(), p.begin(), p.end());
    sizes.push_back(p.size());
  }
}

}  // namespace

PartitionPlan plan_partition(const gpu::ContactList& c, const std::vector<std::uint32_t>& near_index,
                             const LocalBodies& bodies, const domain::Decomposition& d, int rank,
                             const std::vector<int>& neighbours,
                             const std::vector<std::vector<std::uint32_t>>& ghost_sends) {
  const std::size_t nk = neighbours.size();
  std::vector<int> slot_of_rank(static_cast<std::size_t>(d.rank_count()), -1);
  for (std::size_t k = 0; k < nk; ++k) slot_of_rank[static_cast<std::size_t>(neighbours[k])] = static_cast<int>(k);

  PartitionPlan plan;
  gpu::SolvePartition& p = plan.partition;
  std::vector<std::vector<std::uint32_t>> slots_out(nk), slots_in(nk);
  for (std::size_t i = 0; i < c.size(); ++i) {
    const std::uint32_t body[2] = {local_index(bodies, c.gid_a[i]), local_index(bodies, c.gid_b[i])};
    const int holder[2] = {bodies.holder[body[0]], bodies.holder[body[1]]};
    const int solver = d.owner_of(contact_midpoint(c, i));
    const bool solve_here = solver == rank;
    if (!solve_here && holder[0] != kOwnedHere && holder[1] != kOwnedHere) {
      plan.dropped.push_back(near_index[i]);
      plan.kept_index.push_back(kDropped);
      continue;
    }
    // The contacts before this one that are not planned here are all kept.
    const auto index = static_cast<std::uint32_t>(near_index[i] - plan.dropped.size());
    plan.kept_index.push_back(index);
    if (solve_here) {
      // Our impulses on a neighbour's bodies go to that neighbour.
      for (int side = 0; side < 2; ++side)
        if (holder[side] >= 0) slots_out[static_cast<std::size_t>(holder[side])].push_back(2 * index + side);
      continue;
    }
    p.solved_elsewhere.push_back(index);
    const int from = slot_of_rank[static_cast<std::size_t>(solver)];
    if (from < 0)
      throw std::logic_error("contact " + std::to_string(c.gid_a[i]) + "-" + std::to_string(c.gid_b[i]) +
                             " is solved by rank " + std::to_string(solver) + ", not a neighbour of rank " +
                             std::to_string(rank) + ": the ghost layer is too thin");
    for (int side = 0; side < 2; ++side)
      if (holder[side] == kOwnedHere) slots_in[static_cast<std::size_t>(from)].push_back(2 * index + side);
  }

  std::vector<std::vector<std::uint32_t>> velocities_in(nk);
  for (std::uint32_t j = 0; j < bodies.gid.size(); ++j)
    if (bodies.holder[j] >= 0) velocities_in[static_cast<std::size_t>(bodies.holder[j])].push_back(j);
  concatenate(slots_out, p.slots_out, plan.counts.slots_out);
  concatenate(slots_in, p.slots_in, plan.counts.slots_in);
  concatenate(ghost_sends, p.velocities_out, plan.counts.velocities_out);
  concatenate(velocities_in, p.velocities_in, plan.counts.velocities_in);
  return plan;
}

}  // namespace trackcosim::terrain
