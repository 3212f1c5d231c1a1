// Subdomain boxes, owners and neighbours of slab and grid splits (domain/decomposition.h).

#include "domain/decomposition.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace trackcosim::domain {
namespace {

std::vector<Decomposition> splits() {
  const Aabb world{{0, 0, 0}, {1, 1, 1}};
  return {Decomposition(), Decomposition::uniform({4, 1, 1}, world), Decomposition::uniform({2, 2, 1}, world),
          Decomposition::uniform({2, 2, 2}, world), Decomposition({3, 1, 1}, {0.1, 0.7}, {}, {})};
}

TEST(Decomposition, EveryPointHasExactlyOneOwnerAndItsBoxContainsIt) {
  std::mt19937_64 random(5);
  std::uniform_real_distribution<real> coordinate(-0.5, 1.5);  // beyond the world box too
  for (const Decomposition& d : splits()) {
    for (int k = 0; k < 2000; ++k) {
      const Vec3 p{coordinate(random), coordinate(random), coordinate(random)};
      int holders = 0;
      for (int r = 0; r < d.rank_count(); ++r) holders += d.box(r).contains(p) ? 1 : 0;
      ASSERT_EQ(holders, 1) << layout_name(d.grid());
      EXPECT_TRUE(d.box(d.owner_of(p)).contains(p));
      EXPECT_EQ(d.distance_to_box(p, d.owner_of(p)), 0);
    }
  }
}

TEST(Decomposition, PointOnACutBelongsToTheUpperBox) {
  const Decomposition d = Decomposition::uniform({4, 1, 1}, {{0, 0, 0}, {1, 1, 1}});
  EXPECT_EQ(d.owner_of({0.5, 0.3, 0.3}), 2);
  EXPECT_EQ(d.owner_of({0.5 - 1e-12, 0.3, 0.3}), 1);
}

TEST(Decomposition, NeighboursAreTheBoxesWithinTheWidth) {
  const Decomposition slab = Decomposition::uniform({4, 1, 1}, {{0, 0, 0}, {1, 1, 1}});
  EXPECT_EQ(slab.neighbours(1, 0.1), (std::vector<int>{0, 2}));
  EXPECT_EQ(slab.neighbours(0, 0.1), (std::vector<int>{1}));
  EXPECT_EQ(slab.neighbours(0, 0.3), (std::vector<int>{1, 2}));  // wider than a slab: two away
  const Decomposition grid = Decomposition::uniform({2, 2, 1}, {{0, 0, 0}, {1, 1, 1}});
  EXPECT_EQ(grid.neighbours(0, 0.01), (std::vector<int>{1, 2, 3}));  // 3 across the corner
}

TEST(Decomposition, BoxesAreTheCutsWithInfiniteOuterFaces) {
  const Decomposition d({2, 2, 1}, {0.3}, {0.6}, {});
  const Aabb b = d.box(rank_of(d.grid(), 1, 0, 0));
  EXPECT_EQ(b.lo.x, 0.3);
  EXPECT_TRUE(std::isinf(b.hi.x) && b.hi.x > 0);
  EXPECT_TRUE(std::isinf(b.lo.y) && b.lo.y < 0);
  EXPECT_EQ(b.hi.y, 0.6);
  EXPECT_TRUE(std::isinf(b.lo.z) && std::isinf(b.hi.z));
  EXPECT_EQ(d.cuts(0), (std::vector<real>{0.3}));
  EXPECT_TRUE(d.cuts(2).empty());
  const Decomposition single;
  EXPECT_EQ(single.rank_count(), 1);
  EXPECT_EQ(single.owner_of({1e9, -1e9, 3}), 0);
  EXPECT_TRUE(single.neighbours(0, 1e9).empty());
}

TEST(Decomposition, NeighboursAcrossFacesEdgesAndCorners) {
  const Decomposition d = Decomposition::uniform({3, 3, 3}, {{0, 0, 0}, {3, 3, 3}});
  EXPECT_EQ(d.neighbours(rank_of(d.grid(), 1, 1, 1), 0.01).size(), 26u);
  EXPECT_EQ(d.neighbours(rank_of(d.grid(), 0, 0, 0), 0.01), (std::vector<int>{1, 3, 4, 9, 10, 12, 13}));
  // From the corner box, a box with n of its indices at 2 is sqrt(n) away (unit cells).
  EXPECT_EQ(d.neighbours(0, 0.999).size(), 7u);
  EXPECT_EQ(d.neighbours(0, 1.001).size(), 7u + 12u);
  EXPECT_EQ(d.neighbours(0, 1.5).size(), 7u + 12u + 6u);
  EXPECT_EQ(d.neighbours(0, 1.8).size(), 26u);
}

TEST(Decomposition, DistanceToABoxIsEuclidean) {
  const Aabb b{{0, 0, 0}, {1, 1, 1}};
  EXPECT_EQ(distance_to(b, {0.5, 0.5, 0.5}), 0);
  EXPECT_DOUBLE_EQ(distance_to(b, {2, 0.5, 0.5}), 1.0);
  EXPECT_DOUBLE_EQ(distance_to(b, {4, 5, 0.5}), 5.0);  // 3-4-5 off an edge
  EXPECT_DOUBLE_EQ(distance_to(b, {-1, -2, 3}), 3.0);  // off a corner: sqrt(1 + 4 + 4)
}

TEST(Decomposition, OuterFacesAreInfinite) {
  const Decomposition d = Decomposition::uniform({2, 1, 1}, {{0, 0, 0}, {1, 1, 1}});
  EXPECT_EQ(d.owner_of({-100, 50, -7}), 0);
  EXPECT_EQ(d.owner_of({100, 50, -7}), 1);
  EXPECT_NEAR(d.distance_to_box({-100, 0, 0}, 1), 100.5, 1e-12);
}

TEST(Decomposition, BadCutsAreRefused) {
  EXPECT_THROW(Decomposition({3, 1, 1}, {0.5}, {}, {}), std::invalid_argument);        // too few
  EXPECT_THROW(Decomposition({3, 1, 1}, {0.5, 0.2}, {}, {}), std::invalid_argument);   // decreasing
}

}  // namespace
}  // namespace trackcosim::domain
