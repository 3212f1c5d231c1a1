// Which contacts a rank keeps and solves, and the message lists of a distributed solve
// (terrain_node/distributed/solve_partition_plan.h), on a hand-made two-rank slab split at x = 0.5.

#include "terrain_node/distributed/solve_partition_plan.h"

#include <gtest/gtest.h>

namespace trackcosim::terrain {
namespace {

/// Adds a contact whose two contact points lie at x = xa and x = xb (y = z = 0).
void add_contact(gpu::ContactList& c, gpu::GlobalId a, gpu::GlobalId b, real xa, real xb) {
  c.gid_a.push_back(a), c.gid_b.push_back(b), c.shape_a.push_back(0), c.shape_b.push_back(0);
  c.distance.push_back(0);
  c.nx.push_back(1), c.ny.push_back(0), c.nz.push_back(0);
  c.ax.push_back(xa), c.ay.push_back(0), c.az.push_back(0);
  c.bx.push_back(xb), c.by.push_back(0), c.bz.push_back(0);
}

TEST(SolvePartitionPlan, EachContactIsSolvedByItsMidpointsOwnerAndSlotsGoWhereTheirBodiesAre) {
  const domain::Decomposition d({2, 1, 1}, {0.5}, {}, {});
  // Rank 0 holds: the floor (every rank), spheres 1 and 2 (owned), 3 and 4 (ghosts of rank 1).
  LocalBodies bodies{{0, 1, 2, 3, 4}, {kOnEveryRank, kOwnedHere, kOwnedHere, 0, 0}};
  // The detected list had 8 contacts; 0, 2 and 4 were deep inside rank 0's box (kept, solved
  // here, not planned). These are the others, at detected indices 1, 3, 5, 6 and 7.
  gpu::ContactList c;
  add_contact(c, 0, 1, 0.40, 0.40);  // detected 1: floor-sphere, here
  add_contact(c, 2, 3, 0.47, 0.49);  // detected 3: midpoint 0.48, here; B is rank 1's
  add_contact(c, 3, 4, 0.52, 0.55);  // detected 5: two ghosts, rank 1's: dropped
  add_contact(c, 2, 4, 0.49, 0.51);  // detected 6: midpoint 0.50, rank 1 solves it; A is ours
  add_contact(c, 1, 2, 0.42, 0.43);  // detected 7: both owned, here
  const PartitionPlan plan = plan_partition(c, {1, 3, 5, 6, 7}, bodies, d, 0, {1}, {{2}});

  EXPECT_EQ(plan.dropped, (std::vector<std::uint32_t>{5}));
  // Kept: detected 0-4 keep their places, 6 and 7 move up one.
  EXPECT_EQ(plan.kept_index, (std::vector<std::uint32_t>{1, 3, kDropped, 5, 6}));
  const gpu::SolvePartition& p = plan.partition;
  EXPECT_EQ(p.solved_elsewhere, (std::vector<std::uint32_t>{5}));
  EXPECT_EQ(p.slots_out, (std::vector<std::uint32_t>{2 * 3 + 1}));  // kept contact 3, side B
  EXPECT_EQ(p.slots_in, (std::vector<std::uint32_t>{2 * 5 + 0}));   // kept contact 5, side A
  EXPECT_EQ(p.velocities_out, (std::vector<std::uint32_t>{2}));
  EXPECT_EQ(p.velocities_in, (std::vector<std::uint32_t>{3, 4}));  // every ghost
  EXPECT_EQ(plan.counts.slots_out, (std::vector<std::size_t>{1}));
  EXPECT_EQ(plan.counts.slots_in, (std::vector<std::size_t>{1}));
  EXPECT_EQ(plan.counts.velocities_out, (std::vector<std::size_t>{1}));
  EXPECT_EQ(plan.counts.velocities_in, (std::vector<std::size_t>{2}));
}

TEST(SolvePartitionPlan, AContactOwnedByARankBeyondTheNeighboursIsAnError) {
  const domain::Decomposition d({3, 1, 1}, {0.5, 1.0}, {}, {});
  LocalBodies bodies{{1, 2}, {kOwnedHere, 0}};
  gpu::ContactList c;
  add_contact(c, 1, 2, 0.9, 1.3);  // midpoint 1.1: rank 2, which rank 0 does not talk to
  EXPECT_THROW(plan_partition(c, {0}, bodies, d, 0, {1}, {{}}), std::logic_error);
}

}  // namespace
}  // namespace trackcosim::terrain
