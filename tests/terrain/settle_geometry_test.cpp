// The pure pieces behind the settle statistics, against closed forms: the area of a disk cut by
// a rectangle, the volume of a sphere cut by a box (caps, halves, octants, and pi/6 for whole
// periods of a simple cubic lattice of touching spheres), and height maps of known arrangements
// (a flat layer, a step) with their CSV and PNG files read back.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>

#include "io/gray_image.h"
#include "terrain_node/output/height_map.h"
#include "terrain_node/output/sphere_box_volume.h"

namespace trackcosim::terrain {
namespace {

namespace fs = std::filesystem;
constexpr double kPi = std::numbers::pi;
// The quadrature of sphere_box_volume (5-point Gauss panels between the cut area's kinks).
constexpr double kVolumeTolerance = 1e-9;  // relative

double ball(double r) { return 4.0 / 3.0 * kPi * r * r * r; }
domain::Aabb box(Vec3 lo, Vec3 hi) { return {lo, hi}; }

TEST(DiskRectangleArea, MatchesClosedForms) {
  const double r = 0.7;
  EXPECT_NEAR(disk_rectangle_area(r, -1, 1, -1, 1), kPi * r * r, 1e-14);          // whole disk
  EXPECT_NEAR(disk_rectangle_area(r, 0, 1, -1, 1), kPi * r * r / 2, 1e-14);       // half
  EXPECT_NEAR(disk_rectangle_area(r, 0, 1, 0, 1), kPi * r * r / 4, 1e-14);        // quadrant
  EXPECT_NEAR(disk_rectangle_area(r, -0.2, 0.3, -0.1, 0.4), 0.5 * 0.5, 1e-14);    // rectangle inside
  EXPECT_EQ(disk_rectangle_area(r, 0.8, 1, -1, 1), 0.0);                           // apart
  // A segment: the part beyond x = a has area r^2 acos(a/r) - a sqrt(r^2 - a^2).
  const double a = 0.3;
  EXPECT_NEAR(disk_rectangle_area(r, a, 5, -5, 5), r * r * std::acos(a / r) - a * std::sqrt(r * r - a * a), 1e-14);
}

TEST(SphereBoxVolume, WholeHalfOctantAndCap) {
  const Vec3 c{0.1, -0.2, 0.3};
  const double r = 0.05;
  EXPECT_DOUBLE_EQ(sphere_box_volume(c, r, box({-1, -1, -1}, {1, 1, 1})), ball(r));
  EXPECT_EQ(sphere_box_volume(c, r, box({0.2, -1, -1}, {1, 1, 1})), 0.0);
  EXPECT_NEAR(sphere_box_volume(c, r, box({-1, -1, 0.3}, {1, 1, 1})), ball(r) / 2, kVolumeTolerance * ball(r));
  EXPECT_NEAR(sphere_box_volume(c, r, box({0.1, -0.2, 0.3}, {1, 1, 1})), ball(r) / 8, kVolumeTolerance * ball(r));
  EXPECT_NEAR(sphere_box_volume(c, r, box({-1, -1, -1}, {0.1, -0.2, 1})), ball(r) / 4, kVolumeTolerance * ball(r));
  // A cap of height h cut off sideways by a plane x = const: pi h^2 (3r - h) / 3.
  const double h = 0.3 * r;
  EXPECT_NEAR(sphere_box_volume(c, r, box({c.x + r - h, -1, -1}, {1, 1, 1})), kPi * h * h * (3 * r - h) / 3,
              kVolumeTolerance * ball(r));
}

TEST(SphereBoxVolume, WholePeriodsOfASimpleCubicLatticeGivePiOverSix) {
  // Touching spheres of diameter d at the centres of cubic cells of edge d, sampled by a box of
  // 3 x 2 x 4 cells placed off the cell boundaries: each sphere is cut somewhere, the sum is
  // still exactly the solid share of whole periods.
  const double d = 0.01, r = d / 2;
  const Vec3 lo{0.0123, 0.0071, 0.0249};
  const domain::Aabb sample = box(lo, {lo.x + 3 * d, lo.y + 2 * d, lo.z + 4 * d});
  double solid = 0;
  for (int i = -1; i < 8; ++i)
    for (int j = -1; j < 8; ++j)
      for (int k = -1; k < 10; ++k) solid += sphere_box_volume({(i + 0.5) * d, (j + 0.5) * d, (k + 0.5) * d}, r, sample);
  EXPECT_NEAR(solid / (24 * d * d * d), kPi / 6, 1e-9);
}

/// A layer of spheres of radius r at z on a square grid of pitch 2r (one centre per map cell).
terrain::HeightMap layer_map(double r, double step_height) {
  terrain::HeightMap map(terrain::covering_grid(0, 0, 0.2, 0.1, 2 * r));
  for (int i = 0; i < 20; ++i)
    for (int j = 0; j < 10; ++j) {
      const double x = (i + 0.5) * 2 * r, y = (j + 0.5) * 2 * r;
      const double z = 0.05 + (x > 0.1 ? step_height : 0.0);
      map.raise(x, y, z - 0.003 + r);  // a lower sphere in the same cell does not count
      map.raise(x, y, z + r);
    }
  return map;
}

TEST(HeightMap, AFlatLayerGivesItsTopInEveryCell) {
  const double r = 0.005;
  const terrain::HeightMap map = layer_map(r, 0);
  ASSERT_EQ(map.grid.columns, 20u);
  ASSERT_EQ(map.grid.rows, 10u);
  EXPECT_EQ(map.filled(), 200u);
  for (const double top : map.top) EXPECT_NEAR(top, 0.055, 1e-9);
}

TEST(HeightMap, AStepShowsInTheRightColumnsAndRowZeroIsTheLargestY) {
  const double r = 0.005;
  terrain::HeightMap map = layer_map(r, 0.02);
  for (std::size_t row = 0; row < map.grid.rows; ++row)
    for (std::size_t column = 0; column < map.grid.columns; ++column)
      EXPECT_NEAR(map.top[row * map.grid.columns + column], column >= 10 ? 0.075 : 0.055, 1e-9) << row << "," << column;
  // One more sphere near the largest y, smallest x: it lands in row 0, column 0.
  map.raise(0.001, 0.099, 0.5);
  EXPECT_EQ(map.top[0], 0.5);
  const auto [x, y] = map.grid.centre(0, 0);
  EXPECT_NEAR(x, r, 1e-15);
  EXPECT_NEAR(y, 0.1 - r, 1e-15);
  EXPECT_EQ(map.range().first, 0.055);
  EXPECT_EQ(map.range().second, 0.5);
}

class HeightMapFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("trackcosim_heightmap_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(HeightMapFiles, CsvReadsBackToTheSameBitsWithEmptyCells) {
  terrain::HeightMap map = layer_map(0.005, 0.0123456789);
  map.top[3] = std::nan("");
  map.top.back() = std::nan("");
  terrain::write_height_map_csv(dir_ / "heightmap.csv", map);
  const terrain::HeightMap back = terrain::read_height_map_csv(dir_ / "heightmap.csv");
  EXPECT_EQ(back.grid.columns, map.grid.columns);
  EXPECT_EQ(back.grid.rows, map.grid.rows);
  EXPECT_EQ(back.grid.spacing, map.grid.spacing);
  ASSERT_EQ(back.top.size(), map.top.size());
  for (std::size_t i = 0; i < map.top.size(); ++i) {
    if (std::isnan(map.top[i])) EXPECT_TRUE(std::isnan(back.top[i])) << i;
    else EXPECT_EQ(back.top[i], map.top[i]) << i;
  }
}

TEST_F(HeightMapFiles, PngReadsBackToTheCsvWithinOneGrayLevel) {
  terrain::HeightMap map = layer_map(0.005, 0.02);
  for (std::size_t i = 0; i < map.top.size(); ++i) map.top[i] += 1e-4 * double(i % 17);  // not just two levels
  terrain::write_height_map_png(dir_ / "heightmap.png", map);
  const io::GrayImage image = io::read_gray_image(dir_ / "heightmap.png");
  ASSERT_EQ(image.width, map.grid.columns);
  ASSERT_EQ(image.height, map.grid.rows);
  const auto [z_min, z_max] = map.range();
  const double level = (z_max - z_min) / 65535;  // one gray level of the 16-bit picture
  for (std::size_t row = 0; row < image.height; ++row)
    for (std::size_t column = 0; column < image.width; ++column)
      EXPECT_NEAR(z_min + image.at(column, row) * (z_max - z_min), map.top[row * image.width + column], level)
          << row << "," << column;
}

}  // namespace
}  // namespace trackcosim::terrain
