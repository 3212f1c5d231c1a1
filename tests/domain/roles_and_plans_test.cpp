// Ghost width, body roles and the per-step plans (domain/ghost_width.h, body_roles.h,
// migration_plan.h).

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "domain/body_roles.h"
#include "domain/ghost_width.h"
#include "domain/migration_plan.h"

namespace trackcosim::domain {
namespace {

const Aabb kUnit{{0, 0, 0}, {1, 1, 1}};

TEST(GhostWidth, IsTwoRadiiPlusEnvelopePlusTwoDisplacements) {
  EXPECT_DOUBLE_EQ(ghost_width(0.01, 0.001, 0.002), 0.02 + 0.001 + 0.004);
  EXPECT_DOUBLE_EQ(ghost_width(0.5, 0, 0), 1.0);
  EXPECT_THROW(ghost_width(0, 0.001, 0.002), std::invalid_argument);
  EXPECT_THROW(ghost_width(-0.01, 0.001, 0.002), std::invalid_argument);
  EXPECT_THROW(ghost_width(0.01, -1, 0.002), std::invalid_argument);
  EXPECT_THROW(ghost_width(0.01, 0.001, -0.1), std::invalid_argument);
  const real inf = std::numeric_limits<real>::infinity(), nan = std::numeric_limits<real>::quiet_NaN();
  EXPECT_THROW(ghost_width(inf, 0.001, 0.002), std::invalid_argument);
  EXPECT_THROW(ghost_width(0.01, nan, 0.002), std::invalid_argument);
  EXPECT_THROW(ghost_width(0.01, 0.001, inf), std::invalid_argument);
  try {
    ghost_width(0.01, -1, 0.002);
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("envelope"), std::string::npos) << e.what();
  }
}

TEST(BodyRoles, NearTheCornerOfATwoByTwoGrid) {
  const Decomposition d = Decomposition::uniform({2, 2, 1}, kUnit);
  const real w = 0.05;
  EXPECT_EQ(classify(d, 0, {0.2, 0.2, 0.5}, w), BodyRole::Owned);
  EXPECT_EQ(classify(d, 0, {0.48, 0.2, 0.5}, w), BodyRole::Shared);
  EXPECT_EQ(classify(d, 1, {0.48, 0.2, 0.5}, w), BodyRole::Ghost);
  EXPECT_EQ(classify(d, 3, {0.48, 0.2, 0.5}, w), BodyRole::Outside);
  // Diagonally off the corner: 0.03 along x and y is 0.042 from rank 3's box, inside w.
  // 0.04 along x and y is 0.0566 from it, beyond w, though each face is only 0.04 away.
  EXPECT_EQ(classify(d, 3, {0.47, 0.47, 0.5}, w), BodyRole::Ghost);
  EXPECT_EQ(classify(d, 3, {0.46, 0.46, 0.5}, w), BodyRole::Outside);
  EXPECT_EQ(classify(d, 1, {0.46, 0.46, 0.5}, w), BodyRole::Ghost);
  EXPECT_EQ(classify(d, 0, {0.5, 0.5, 0.5}, w), BodyRole::Ghost);  // on the corner: rank 3 owns it
  EXPECT_EQ(classify(d, 3, {0.5, 0.5, 0.5}, w), BodyRole::Shared);
  // The outer faces are infinite: far outside the bed the body is still owned.
  EXPECT_EQ(classify(d, 0, {-40, -40, 90}, w), BodyRole::Owned);
  std::vector<int> needing{42};
  ranks_needing_ghost(d, 0, {0.49, 0.49, 0.5}, w, needing);
  EXPECT_EQ(needing, (std::vector<int>{1, 2, 3}));
  ranks_needing_ghost(d, 0, {0.49, 0.2, 0.5}, w, needing);
  EXPECT_EQ(needing, (std::vector<int>{1}));
  ranks_needing_ghost(d, 0, {0.2, 0.2, 0.5}, w, needing);
  EXPECT_TRUE(needing.empty());
}

TEST(MigrationPlan, ABodyCrossingTheCornerGoesToTheDiagonalRank) {
  const Decomposition d = Decomposition::uniform({2, 2, 1}, kUnit);
  const std::vector<Vec3> after{{0.2, 0.2, 0.5}, {0.51, 0.51, 0.5}, {0.51, 0.2, 0.5}, {0.2, 0.5, 0.5}};
  const std::vector<Migration> moves = plan_migration(d, 0, after);
  ASSERT_EQ(moves.size(), 3u);
  EXPECT_EQ(moves[0].index, 1u);
  EXPECT_EQ(moves[0].destination, 3);
  EXPECT_EQ(moves[1].index, 2u);
  EXPECT_EQ(moves[1].destination, 1);
  EXPECT_EQ(moves[2].index, 3u);  // on the cut y = 0.5: the upper box
  EXPECT_EQ(moves[2].destination, 2);
  EXPECT_TRUE(plan_migration(d, 0, std::vector<Vec3>{{0.1, 0.1, 5}, {-3, -3, -3}}).empty());
}

/// plan_ghosts against the definition: every owned body within w of each neighbour's box.
void expect_plan_matches_brute_force(const Decomposition& d, int rank, const std::vector<Vec3>& owned, real w,
                                     std::size_t neighbour_count) {
  const GhostPlan plan = plan_ghosts(d, rank, owned, w);
  ASSERT_EQ(plan.neighbours, d.neighbours(rank, w));
  ASSERT_EQ(plan.neighbours.size(), neighbour_count);
  ASSERT_EQ(plan.send.size(), neighbour_count);
  for (std::size_t k = 0; k < plan.neighbours.size(); ++k) {
    std::vector<std::uint32_t> brute;
    for (std::uint32_t i = 0; i < owned.size(); ++i)
      if (d.distance_to_box(owned[i], plan.neighbours[k]) <= w) brute.push_back(i);
    EXPECT_EQ(plan.send[k], brute) << "neighbour " << plan.neighbours[k];
    EXPECT_FALSE(brute.empty());
  }
}

TEST(GhostPlan, ListsExactlyTheOwnedBodiesWithinTheWidthOfEachNeighbour) {
  const Decomposition d = Decomposition::uniform({2, 2, 1}, kUnit);
  std::mt19937_64 random(3);
  std::uniform_real_distribution<real> in_box(0, 0.5);
  std::vector<Vec3> owned;
  for (int i = 0; i < 10000; ++i) owned.push_back({in_box(random), in_box(random), 2 * in_box(random)});
  expect_plan_matches_brute_force(d, 0, owned, 0.03, 3);
}

TEST(GhostPlan, TheCentreOfAThreeByThreeByThreeGridSendsToAll26) {
  const Decomposition d = Decomposition::uniform({3, 3, 3}, {{0, 0, 0}, {3, 3, 3}});
  const int centre = rank_of(d.grid(), 1, 1, 1);
  std::mt19937_64 random(17);
  std::uniform_real_distribution<real> in_box(1, 2);
  std::vector<Vec3> owned;
  for (int i = 0; i < 10000; ++i) owned.push_back({in_box(random), in_box(random), in_box(random)});
  expect_plan_matches_brute_force(d, centre, owned, 0.2, 26);
}

TEST(GhostPlan, BodiesThatLeftTheBoxAreStillSentToTheRanksNearThem) {
  // Before migration an owned list may hold a body already over the cut: it is 0 from rank 1.
  const Decomposition d = Decomposition::uniform({3, 1, 1}, kUnit);
  const std::vector<Vec3> owned{{0.1, 0.5, 0.5}, {0.34, 0.5, 0.5}, {0.7, 0.5, 0.5}};
  const GhostPlan plan = plan_ghosts(d, 0, owned, 0.05);
  ASSERT_EQ(plan.neighbours, (std::vector<int>{1}));
  EXPECT_EQ(plan.send[0], (std::vector<std::uint32_t>{1, 2}));
}

}  // namespace
}  // namespace trackcosim::domain
