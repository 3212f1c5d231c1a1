// Balanced cuts, ghost width, body roles and the per-step plans (domain/balanced_cuts.h,
// ghost_width.h, body_roles.h, migration_plan.h).

#include <gtest/gtest.h>

#include <random>

#include "domain/balanced_cuts.h"
#include "domain/body_roles.h"
#include "domain/ghost_width.h"
#include "domain/migration_plan.h"

namespace trackcosim::domain {
namespace {

TEST(BalancedCuts, SplitAtTheCountQuantileNotTheMiddle) {
  // 1000 points on [0, 1) and 1000 on [1, 1.1): two equal halves meet near x = 1.
  std::vector<real> x;
  for (int i = 0; i < 1000; ++i) x.push_back(0.001 * i);
  for (int i = 0; i < 1000; ++i) x.push_back(1.0 + 0.0001 * i);
  const AxisHistogram h = axis_histogram(x, 0, 1.1, 1100);
  const std::vector<real> cuts = balanced_cuts(h, 2, 0.01);
  ASSERT_EQ(cuts.size(), 1u);
  EXPECT_NEAR(cuts[0], 1.0, 0.0011);  // within one bin width (0.001) and rounding
  std::size_t below = 0;
  for (const real v : x) below += v < cuts[0] ? 1 : 0;
  EXPECT_NEAR(double(below), 1000.0, 10.0);
}

TEST(BalancedCuts, PartsStayAtLeastTheMinimumWide) {
  std::vector<real> x(1000, 0.5);  // everything in one spot
  const std::vector<real> cuts = balanced_cuts(axis_histogram(x, 0, 1, 100), 4, 0.2);
  ASSERT_EQ(cuts.size(), 3u);
  EXPECT_GE(cuts[0], 0.2 - 1e-12);
  for (std::size_t k = 1; k < cuts.size(); ++k) EXPECT_GE(cuts[k] - cuts[k - 1], 0.2 - 1e-12);
  EXPECT_LE(cuts.back(), 0.8 + 1e-12);
}

TEST(GhostWidth, IsTwoRadiiPlusEnvelopePlusTwoDisplacements) {
  EXPECT_DOUBLE_EQ(ghost_width(0.01, 0.001, 0.002), 0.02 + 0.001 + 0.004);
  EXPECT_THROW(ghost_width(0, 0.001, 0.002), std::invalid_argument);
  EXPECT_THROW(ghost_width(0.01, -1, 0.002), std::invalid_argument);
  EXPECT_THROW(ghost_width(0.01, 0.001, -0.1), std::invalid_argument);
}

TEST(BodyRoles, NearTheCornerOfATwoByTwoGrid) {
  const Decomposition d = Decomposition::uniform({2, 2, 1}, {{0, 0, 0}, {1, 1, 1}});
  const real w = 0.05;
  EXPECT_EQ(classify(d, 0, {0.2, 0.2, 0.5}, w), BodyRole::Owned);
  EXPECT_EQ(classify(d, 0, {0.48, 0.2, 0.5}, w), BodyRole::Shared);
  EXPECT_EQ(classify(d, 1, {0.48, 0.2, 0.5}, w), BodyRole::Ghost);
  EXPECT_EQ(classify(d, 3, {0.48, 0.2, 0.5}, w), BodyRole::Outside);
  std::vector<int> needing;
  ranks_needing_ghost(d, 0, {0.49, 0.49, 0.5}, w, needing);
  EXPECT_EQ(needing, (std::vector<int>{1, 2, 3}));
}

TEST(MigrationPlan, ABodyCrossingTheCornerGoesToTheDiagonalRank) {
  const Decomposition d = Decomposition::uniform({2, 2, 1}, {{0, 0, 0}, {1, 1, 1}});
  const std::vector<Vec3> after{{0.2, 0.2, 0.5}, {0.51, 0.51, 0.5}, {0.51, 0.2, 0.5}};
  const std::vector<Migration> moves = plan_migration(d, 0, after);
  ASSERT_EQ(moves.size(), 2u);
  EXPECT_EQ(moves[0].index, 1u);
  EXPECT_EQ(moves[0].destination, 3);
  EXPECT_EQ(moves[1].destination, 1);
}

TEST(GhostPlan, ListsExactlyTheOwnedBodiesWithinTheWidthOfEachNeighbour) {
  const Decomposition d = Decomposition::uniform({2, 2, 1}, {{0, 0, 0}, {1, 1, 1}});
  std::mt19937_64 random(3);
  std::uniform_real_distribution<real> in_box(0, 0.5);
  std::vector<Vec3> owned;
  for (int i = 0; i < 10000; ++i) owned.push_back({in_box(random), in_box(random), 2 * in_box(random)});
  const real w = 0.03;
  const GhostPlan plan = plan_ghosts(d, 0, owned, w);
  ASSERT_EQ(plan.neighbours, (std::vector<int>{1, 2, 3}));
  for (std::size_t k = 0; k < plan.neighbours.size(); ++k) {
    std::vector<std::uint32_t> brute;
    for (std::uint32_t i = 0; i < owned.size(); ++i)
      if (d.distance_to_box(owned[i], plan.neighbours[k]) <= w) brute.push_back(i);
    EXPECT_EQ(plan.send[k], brute) << "neighbour " << plan.neighbours[k];
    EXPECT_FALSE(brute.empty());
  }
}

}  // namespace
}  // namespace trackcosim::domain
