// Random filling (terrain_node/generators/random_fill.h), size distributions (terrain_node/generators/size_distribution.h) and
// obstacles (terrain_node/generators/obstacles.h): the fill keeps every pair at least 2 r + gap apart (all pairs
// checked through a grid) and makes exactly the count asked, or the packing within the rounding
// of the mean sphere volume; sampled radii have the distribution's mean and spread; obstacles
// are fixed bodies of the documented shape that no generated sphere overlaps.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>

#include "terrain_node/config/terrain_config.h"
#include "terrain_node/generators/counter_random.h"
#include "tests/support/config_errors.h"
#include "tests/support/sphere_checks.h"

namespace trackcosim::terrain {
namespace {

TerrainConfig parse(const std::string& text) { return parse_terrain_config(text, "fill.json"); }

double sphere_volume(double r) { return 4.0 / 3.0 * std::numbers::pi * r * r * r; }

TEST(RandomFill, KeepsTheGapAndReachesThePackingAsked) {
  const TerrainConfig c = parse(R"({"end_time": 0, "container": {"min": [0, 0, 0], "max": [0.2, 0.2, 0.2]},
    "particles": [{"kind": "random_fill", "min": [0, 0, 0], "max": [0.2, 0.2, 0.2], "radius": [0.004, 0.006],
                   "gap": 0.001, "packing": 0.2, "seed": 11}]})");
  const std::vector<test::PlacedSphere> spheres = test::dynamic_spheres(c.bodies);
  const auto& source = std::get<RandomFillSource>(c.scene.particles[0].generator);
  EXPECT_EQ(spheres.size(), source.fill.count) << "the fill makes exactly its count";
  double volume = 0;
  for (const test::PlacedSphere& s : spheres) {
    volume += sphere_volume(s.radius);
    for (const real v : {s.center.x, s.center.y, s.center.z}) {
      EXPECT_GE(v - s.radius, 0.0) << "outside the box";
      EXPECT_LE(v + s.radius, 0.2) << "outside the box";
    }
  }
  // The count comes from the mean volume of the radius distribution; the drawn radii differ from
  // it by sampling noise only: 1% (about 5 standard errors for 2,900 spheres).
  EXPECT_NEAR(volume / 0.008, 0.2, 0.2 * 0.01);
  // Guaranteed minimum separation: surface to surface >= gap for every pair (1e-12: rounding).
  EXPECT_GE(test::smallest_gap(spheres, 0.013), 0.001 - 1e-12);
}

TEST(RandomFill, CountAndRefusedPacking) {
  const TerrainConfig c = parse(R"({"end_time": 0, "particles": [{"kind": "random_fill", "min": [0, 0, 0],
    "max": [0.1, 0.1, 0.1], "radius": 0.005, "count": 400, "seed": 1}]})");
  EXPECT_EQ(test::dynamic_spheres(c.bodies).size(), 400u);
  EXPECT_GE(test::smallest_gap(test::dynamic_spheres(c.bodies), 0.011), -1e-12);
  EXPECT_TRUE(test::starts_with(test::config_error_message(parse, R"({"end_time": 0, "particles": [{"kind": "random_fill",
    "min": [0, 0, 0], "max": [0.1, 0.1, 0.1], "radius": 0.005, "packing": 0.4}]})"),
                                "fill.json: particles[0].packing: asks for a packing fraction of 0.4"));
  EXPECT_EQ(test::config_error_message(parse, R"({"end_time": 0, "particles": [{"kind": "random_fill",
    "min": [0, 0, 0], "max": [0.1, 0.1, 0.1], "radius": 0.005}]})"),
            "fill.json: particles[0]: give exactly one of count and packing");
}

/// Mean and standard deviation of n radii drawn as the generators draw them.
std::pair<double, double> sample_moments(const SizeDistribution& d, int n) {
  double sum = 0, squares = 0;
  for (int i = 0; i < n; ++i) {
    const double r = d.sample(counter_unit(5, std::uint64_t(i)));
    sum += r;
    squares += r * r;
  }
  const double mean = sum / n;
  return {mean, std::sqrt(squares / n - mean * mean)};
}

TEST(SizeDistributions, SampleStatisticsMatchTheDistribution) {
  constexpr int n = 40000;
  // Uniform [a, b]: mean (a + b) / 2, std (b - a) / sqrt(12).
  const auto [um, us] = sample_moments(SizeDistribution::uniform(0.002, 0.004), n);
  EXPECT_NEAR(um, 0.003, 3 * 0.000577 / std::sqrt(n));
  EXPECT_NEAR(us, 0.002 / std::sqrt(12.0), 0.02 * 0.000577);
  // Normal clipped to [mu - sigma, mu + 2 sigma]: truncated-normal moments with
  // a = -1, b = 2, Z = Phi(b) - Phi(a): mean = mu + sigma (phi(a) - phi(b)) / Z,
  // var = sigma^2 (1 + (a phi(a) - b phi(b)) / Z - ((phi(a) - phi(b)) / Z)^2).
  const TerrainConfig c = parse(R"({"end_time": 0, "particles": [{"kind": "random_fill", "min": [0, 0, 0],
    "max": [0.05, 0.05, 0.05], "count": 1,
    "radius": {"distribution": "normal", "mean": 0.005, "std": 0.001, "min": 0.004, "max": 0.007}}]})");
  const SizeDistribution normal = std::get<RandomFillSource>(c.scene.particles[0].generator).fill.radius;
  auto phi = [](double x) { return std::exp(-x * x / 2) / std::sqrt(2 * std::numbers::pi); };
  const double z = normal_cdf(2) - normal_cdf(-1), k = (phi(-1) - phi(2)) / z;
  const double mean = 0.005 + 0.001 * k, sd = 0.001 * std::sqrt(1 + (-1 * phi(-1) - 2 * phi(2)) / z - k * k);
  const auto [nm, ns] = sample_moments(normal, n);
  EXPECT_NEAR(nm, mean, 4 * sd / std::sqrt(n));
  EXPECT_NEAR(ns, sd, 0.02 * sd);
  // Sieve by mass: 50% of the mass at r = 2 mm, 50% at r = 4 mm gives count fractions 8/9, 1/9.
  const TerrainConfig s = parse(R"({"end_time": 0, "particles": [{"kind": "random_fill", "min": [0, 0, 0],
    "max": [0.05, 0.05, 0.05], "count": 1, "radius": {"distribution": "sieve",
    "fractions": [{"diameter": 0.008, "mass": 0.5}, {"radius": 0.002, "mass": 0.5}]}}]})");
  const SizeDistribution sieve = std::get<RandomFillSource>(s.scene.particles[0].generator).fill.radius;
  int small = 0;
  for (int i = 0; i < n; ++i) small += sieve.sample(counter_unit(6, std::uint64_t(i))) == real(0.002) ? 1 : 0;
  const double p = 8.0 / 9.0;
  EXPECT_NEAR(double(small) / n, p, 4 * std::sqrt(p * (1 - p) / n));
  EXPECT_TRUE(test::starts_with(test::config_error_message(parse, R"({"end_time": 0, "particles": [{"kind": "random_fill",
    "min": [0, 0, 0], "max": [0.05, 0.05, 0.05], "count": 1, "radius": {"distribution": "normal", "mean": 0.009,
    "std": 0.001, "min": 0.004, "max": 0.007}}]})"), "fill.json: particles[0].radius.mean: must lie in [min, max]"));
}

TEST(Obstacles, FixedBoxesOfTheDocumentedShapeThatNoSphereOverlaps) {
  const std::filesystem::path flat = std::filesystem::temp_directory_path() / "trackcosim_obstacles_flat.csv";
  std::ofstream(flat) << "0.06,0.06\n0.06,0.06\n";
  const TerrainConfig c = parse(R"({"end_time": 0, "container": {"min": [0, 0, 0], "max": [0.6, 0.3, 0.3]},
    "obstacles": [
      {"kind": "box", "center": [0.1, 0.15, 0.03], "size": [0.04, 0.3, 0.06]},
      {"kind": "ramp", "min": [0.2, 0, 0], "max": [0.3, 0.3, 0.05], "friction": 0.9},
      {"kind": "speed_bump", "center": [0.45, 0.15, 0], "length": 0.1, "width": 0.3, "height": 0.04, "segments": 6}],
    "particles": [
      {"kind": "elevation_grid", "file": ")" + flat.string() + R"(", "min": [0, 0], "max": [0.6, 0.3], "radius": 0.004},
      {"kind": "random_fill", "min": [0, 0, 0.07], "max": [0.6, 0.3, 0.12], "radius": 0.004, "packing": 0.2}]})");
  const gpu::BodySet& b = c.bodies;
  // Gids: 5 walls, the two sources, then the obstacles in file order, each one fixed body.
  const std::size_t first = b.size() - 3;
  EXPECT_EQ(b.gid[first], body_count(c.scene) - 3);
  for (std::size_t i = first; i < b.size(); ++i) EXPECT_EQ(b.motion[i], gpu::Motion::Fixed);
  EXPECT_EQ(b.friction[first + 1], 0.9);
  ASSERT_EQ(b.boxes.size(), 1u + 1u + 6u);
  // The box as given; the ramp's slope face rises 0.05 over 0.1; the bump's top reaches 0.04.
  EXPECT_NEAR(b.boxes[0].half_extents.x, 0.02, 1e-15);
  EXPECT_NEAR(b.boxes[0].half_extents.z, 0.03, 1e-15);
  EXPECT_NEAR(b.boxes[1].half_extents.x, std::sqrt(0.1 * 0.1 + 0.05 * 0.05) / 2, 1e-12);
  const std::vector<Obstacle>& o = c.scene.obstacles;
  EXPECT_NEAR(distance_to_box(o[1].boxes()[0], {0.25, 0.15, 0.025 + 1e-6}), 1e-6 * 0.1 / std::hypot(0.1, 0.05), 1e-9)
      << "the slope face passes through the ramp's middle at half height";
  double bump_top = 0;
  for (const OrientedBox& box : o[2].boxes())
    for (int sx : {-1, 1}) {
      const Vec3 corner = box.center + rotate(box.orientation, Vec3{sx * box.half_extents.x, 0, box.half_extents.z});
      bump_top = std::max(bump_top, double(corner.z));
      EXPECT_LE(std::abs(corner.x - 0.45), 0.05 + 1e-12) << "the bump is 0.1 m long";
    }
  EXPECT_NEAR(bump_top, 0.04, 0.04 * (1 - std::cos(std::numbers::pi / 12)) + 1e-12);
  // No sphere overlaps an obstacle, and the obstacles did carve spheres out.
  const std::vector<test::PlacedSphere> spheres = test::dynamic_spheres(b);
  const ObstacleSet set(o);
  for (const test::PlacedSphere& s : spheres) ASSERT_FALSE(set.overlaps(s.center, s.radius)) << "gid " << s.gid;
  const TerrainConfig bare = parse(R"({"end_time": 0, "particles": [{"kind": "elevation_grid", "file": ")" +
                                   flat.string() + R"(", "min": [0, 0], "max": [0.6, 0.3], "bottom": 0, "radius": 0.004}]})");
  EXPECT_LT(spheres.size(), test::dynamic_spheres(bare.bodies).size() + std::get<RandomFillSource>(c.scene.particles[1].generator).fill.count);
  EXPECT_GE(test::smallest_gap(spheres, 0.01), -1e-12);
}

}  // namespace
}  // namespace trackcosim::terrain

namespace trackcosim::terrain {
namespace {

/// The fill below a surface: the ramp z = 0.05 + 0.25 x as a CSV grid over a 0.4 m x 0.2 m box.
TEST(RandomFill, BelowASurfaceEverySphereStaysUnderIt) {
  const std::filesystem::path ramp = std::filesystem::temp_directory_path() / "trackcosim_random_fill_ramp.csv";
  std::ofstream(ramp) << "0.05,0.15\n0.05,0.15\n";
  const TerrainConfig c = parse(R"({"end_time": 0, "particles": [{"kind": "random_fill", "min": [0, 0, 0],
    "max": [0.4, 0.2, 0.2], "radius": [0.004, 0.005], "gap": 0.0005, "packing": 0.15, "seed": 4,
    "surface": {"file": ")" + ramp.string() + R"(", "min": [0, 0], "max": [0.4, 0.2]}}]})");
  const std::vector<test::PlacedSphere> spheres = test::dynamic_spheres(c.bodies);
  const auto& source = std::get<RandomFillSource>(c.scene.particles[0].generator);
  EXPECT_EQ(spheres.size(), source.fill.count);
  // The volume under the ramp is half the box's: the count is that of packing 0.15 in it.
  const double mean_volume = sphere_volume(1) * (std::pow(0.005, 4) - std::pow(0.004, 4)) / (4 * 0.001);
  EXPECT_NEAR(double(spheres.size()), 0.15 * 0.4 * 0.2 * 0.1 / mean_volume, 0.01 * double(spheres.size()));
  double highest_gap = 1;  // the least distance from a sphere's top to the ramp, over the spheres
  for (const test::PlacedSphere& s : spheres) {
    const double surface = 0.05 + 0.25 * s.center.x;
    ASSERT_LE(s.center.z + s.radius, surface + 1e-12) << "gid " << s.gid << " pokes out of the surface";
    highest_gap = std::min(highest_gap, surface - double(s.center.z + s.radius));
  }
  EXPECT_LT(highest_gap, 0.001) << "the fill reaches the surface";
  EXPECT_GE(test::smallest_gap(spheres, 0.011), 0.0005 - 1e-12);
}

// Issue 17 item 8e: placed particles are checked against an obstacle's faces, not its
// axis-aligned bounds. A box 0.4 x 0.4 x 0.1 m tilted by 30 degrees about y: its bounds reach
// 0.143 m above its centre, a sphere resting on its top face sits well inside them.
std::string tilted_box_scene(double clearance) {
  const double angle = std::numbers::pi / 6, r = 0.02;
  const Vec3 center{0.5, 0.5, 0.3};
  const Quat q{std::cos(angle / 2), 0, std::sin(angle / 2), 0};
  const Vec3 up = rotate(q, Vec3{0, 0, 1});  // the top face's outward normal
  const Vec3 p = center + up * (0.05 + r + clearance);
  char sphere[200];
  std::snprintf(sphere, sizeof sphere, R"({"position": [%.17g, %.17g, %.17g], "radius": %.17g})", p.x, p.y, p.z, r);
  char orientation[120];
  std::snprintf(orientation, sizeof orientation, "[%.17g, 0, %.17g, 0]", q.w, q.y);
  return R"({"end_time": 0, "container": {"min": [0, 0, 0], "max": [1, 1, 1]},
    "obstacles": [{"kind": "box", "center": [0.5, 0.5, 0.3], "size": [0.4, 0.4, 0.1], "orientation": )" +
         std::string(orientation) + R"(}],
    "particles": [{"kind": "spheres", "spheres": [)" + sphere + "]}]}";
}

TEST(Obstacles, ASphereMayRestOnATiltedBoxButNotReachIntoIt) {
  const TerrainConfig resting = parse(tilted_box_scene(0));
  EXPECT_EQ(test::dynamic_spheres(resting.bodies).size(), 1u);
  const Vec3 c = test::dynamic_spheres(resting.bodies)[0].center;
  EXPECT_NEAR(distance_to_box(resting.scene.obstacles[0].boxes()[0], c), 0.02, 1e-12) << "touching the top face";
  EXPECT_NO_THROW(parse(tilted_box_scene(0.001)));
  EXPECT_TRUE(test::starts_with(test::config_error_message(parse, tilted_box_scene(-0.001)),
                                "fill.json: particles[0].spheres[0].position: overlaps an obstacle"));
}

TEST(Obstacles, BoxesOverlapByTheirFacesNotTheirBounds) {
  // A cube of edge 2 turned 45 degrees about z: a diamond |x| + |y| <= sqrt 2 in plan.
  const OrientedBox diamond{{0, 0, 0}, {1, 1, 1}, {std::cos(std::numbers::pi / 8), 0, 0, std::sin(std::numbers::pi / 8)}};
  auto box = [](Vec3 lo, Vec3 hi) { return domain::Aabb{lo, hi}; };
  EXPECT_TRUE(boxes_overlap(box({1.2, -0.1, -1}, {2, 0.1, 1}), diamond)) << "over the diamond's corner";
  EXPECT_FALSE(boxes_overlap(box({1.4143, -0.1, -1}, {2, 0.1, 1}), diamond)) << "past the corner";
  // Inside the diamond's axis-aligned bounds (|x|, |y| <= sqrt 2) but beyond its slanted face.
  EXPECT_FALSE(boxes_overlap(box({0.8, 0.8, -1}, {1.2, 1.2, 1}), diamond));
  EXPECT_TRUE(boxes_overlap(box({0.6, 0.6, -1}, {1.2, 1.2, 1}), diamond));
  // Touching: the corner (sqrt 2 / 2, sqrt 2 / 2) lies on the slanted face |x| + |y| = sqrt 2.
  const double s = std::sqrt(2.0) / 2;
  EXPECT_FALSE(boxes_overlap(box({s, s, -1}, {2, 2, 1}), diamond)) << "corner on the face";
  EXPECT_FALSE(boxes_overlap(box({-1, -1, 1}, {1, 1, 2}), diamond)) << "on the top face";
  EXPECT_TRUE(boxes_overlap(box({-0.1, -0.1, -0.1}, {0.1, 0.1, 0.1}), diamond)) << "inside";
}

}  // namespace
}  // namespace trackcosim::terrain
