// Layout names and the automatic choice of the grid (domain/grid_layout.h).

#include "domain/grid_layout.h"

#include <gtest/gtest.h>

#include <string>

namespace trackcosim::domain {
namespace {

std::string chosen(int ranks, Vec3 extent, const char* request = "auto") {
  return layout_name(choose_grid(parse_layout(request), ranks, {{0, 0, 0}, extent}));
}

TEST(GridLayout, AutoCutsTheLongSideFirst) {
  EXPECT_EQ(chosen(2, {10, 1, 1}), "slab:x");
  EXPECT_EQ(chosen(2, {1, 10, 1}), "slab:y");
  EXPECT_EQ(chosen(4, {10, 1, 1}), "slab:x");
  EXPECT_EQ(chosen(4, {4, 4, 1}), "grid:2x2x1");
  EXPECT_EQ(chosen(1, {4, 4, 1}), "single");
  EXPECT_EQ(chosen(3, {1, 1, 1}), "slab:x");  // ties: fewer cut axes, x first
}

TEST(GridLayout, AutoCutsZOnlyWhenItIsTheLongestExtent) {
  // On 1 x 1 x 0.9, 2x2x2 has the least cut area (2.8 against 3.6) but z is not the longest.
  EXPECT_EQ(chosen(8, {1, 1, 0.9}), "grid:4x2x1");
  EXPECT_EQ(chosen(8, {1, 1, 1.1}), "grid:2x2x2");
  EXPECT_EQ(chosen(2, {1, 1, 10}), "slab:z");
  EXPECT_EQ(chosen(6, {3, 2, 1}), "grid:3x2x1");
  EXPECT_EQ(chosen(2, {0, 0, 0}), "slab:x");  // a degenerate bed still gets a layout
}

TEST(GridLayout, NamesSayWhichAxesAreCut) {
  EXPECT_EQ(layout_name({1, 1, 1}), "single");
  EXPECT_EQ(layout_name({3, 1, 1}), "slab:x");
  EXPECT_EQ(layout_name({1, 3, 1}), "slab:y");
  EXPECT_EQ(layout_name({1, 1, 3}), "slab:z");
  EXPECT_EQ(layout_name({2, 1, 3}), "grid:2x1x3");
}

TEST(GridLayout, RequestsAreHonouredOrRefusedWithBothNumbers) {
  EXPECT_EQ(chosen(3, {1, 1, 1}, "slab:z"), "slab:z");
  EXPECT_EQ(chosen(4, {10, 1, 1}, "grid:2x2x1"), "grid:2x2x1");
  try {
    chosen(3, {1, 1, 1}, "grid:2x2x1");
    FAIL() << "a 4-box grid on 3 ranks must be refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("4 subdomains for 3 ranks"), std::string::npos) << e.what();
  }
}

TEST(GridLayout, ParsingRejectsMalformedTextQuotingIt) {
  for (const char* bad : {"grid:2x2", "slab:w", "", "grid:0x1x1", "grid:2x2x1x1", "slab:xy", "grid:2x-2x1", "grid:2xx1",
                          "Auto", "grid:2x2x1 "}) {
    try {
      parse_layout(bad);
      FAIL() << "accepted \"" << bad << "\"";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("\"" + std::string(bad) + "\""), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("grid:PXxPYxPZ"), std::string::npos);
    }
  }
  EXPECT_EQ(parse_layout("auto").kind, LayoutKind::Auto);
  for (int axis = 0; axis < 3; ++axis) {
    const LayoutRequest slab = parse_layout(std::string("slab:") + "xyz"[axis]);
    EXPECT_EQ(slab.kind, LayoutKind::Slab);
    EXPECT_EQ(slab.slab_axis, axis);
  }
  const LayoutRequest g = parse_layout("grid:3x2x1");
  EXPECT_EQ(g.kind, LayoutKind::Grid);
  EXPECT_EQ(g.grid.px * 100 + g.grid.py * 10 + g.grid.pz, 321);
}

}  // namespace
}  // namespace trackcosim::domain
