#include "domain/migration_plan.h"

#include <algorithm>

namespace trackcosim::domain {
namespace {

/// A cheap, exact pre-test for distance_to(b, p) <= w: the distance is at least the gap along any
/// one axis (sqrt of the rounded square of a number gives the number back), so a single gap
/// beyond w rules the box out without the sum of squares and the root.
bool within_on_each_axis(const Aabb& b, Vec3 p, real w) {
  return b.lo.x - p.x <= w && p.x - b.hi.x <= w && b.lo.y - p.y <= w && p.y - b.hi.y <= w && b.lo.z - p.z <= w &&
         p.z - b.hi.z <= w;
}

}  // namespace

std::vector<Migration> plan_migration(const Decomposition& d, int rank, std::span<const Vec3> positions) {
  std::vector<Migration> out;
  const Aabb mine = d.box(rank);  // contains() is owner_of() == rank, with six comparisons
  for (std::uint32_t i = 0; i < positions.size(); ++i)
    if (!mine.contains(positions[i])) out.push_back({i, d.owner_of(positions[i])});
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
      if (within_on_each_axis(boxes[k], p, width) && distance_to(boxes[k], p) <= width) plan.send[k].push_back(i);
  }
  return plan;
}

}  // namespace trackcosim::domain
