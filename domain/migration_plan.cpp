#include "domain/migration_plan.h"

#include <algorithm>

namespace trackcosim::domain {

std::vector<Migration> plan_migration(const Decomposition& d, int rank, std::span<const Vec3> positions) {
  std::vector<Migration> out;
  for (std::uint32_t i = 0; i < positions.size(); ++i) {
    const int owner = d.owner_of(positions[i]);
    if (owner != rank) out.push_back({i, owner});
  }
  return out;
}

GhostPlan plan_ghosts(const Decomposition& d, int rank, std::span<const Vec3> owned_positions, real width) {
  GhostPlan plan;
  plan.neighbours = d.neighbours(rank, width);
  plan.send.resize(plan.neighbours.size());
  std::vector<Aabb> boxes;
  for (const int n : plan.neighbours) boxes.push_back(d.box(n));
  const Aabb mine = d.box(rank);
  for (std::uint32_t i = 0; i < owned_positions.size(); ++i) {
    const Vec3 p = owned_positions[i];
    // Deep inside our box no neighbour is within reach: one test per face, no distance math.
    const real inside = std::min({p.x - mine.lo.x, mine.hi.x - p.x, p.y - mine.lo.y, mine.hi.y - p.y,
                                  p.z - mine.lo.z, mine.hi.z - p.z});
    if (inside > width) continue;
    for (std::size_t k = 0; k < boxes.size(); ++k)
      if (distance_to(boxes[k], p) <= width) plan.send[k].push_back(i);
  }
  return plan;
}

}  // namespace trackcosim::domain
