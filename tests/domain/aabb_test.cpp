#include "domain/aabb.h"

#include <gtest/gtest.h>

using trackcosim::domain::Aabb;

TEST(Aabb, PointOnSharedFaceBelongsToExactlyOneNeighbour) {
  const Aabb left{{0, 0, 0}, {1, 1, 1}};
  const Aabb right{{1, 0, 0}, {2, 1, 1}};
  const trackcosim::Vec3 on_face{1, 0.5, 0.5};
  EXPECT_FALSE(left.contains(on_face));
  EXPECT_TRUE(right.contains(on_face));
}

TEST(Aabb, GrownBoxOverlapsNeighbourByTheMargin) {
  const Aabb left{{0, 0, 0}, {1, 1, 1}};
  const Aabb right{{1, 0, 0}, {2, 1, 1}};
  EXPECT_FALSE(left.overlaps(right));
  const Aabb halo = intersection(left.grown(0.25), right);
  EXPECT_FALSE(halo.empty());
  EXPECT_DOUBLE_EQ(halo.hi.x - halo.lo.x, 0.25);
}

TEST(Aabb, InvertedBoxIsEmpty) {
  EXPECT_TRUE((Aabb{{1, 0, 0}, {0, 1, 1}}).empty());
  EXPECT_FALSE((Aabb{{0, 0, 0}, {0, 0, 0}}).empty());
}
