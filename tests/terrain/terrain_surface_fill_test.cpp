// The surface-following generators (terrain_node/generators/surface_fill.h) on a known ramp z(x) = 0.05 + 0.25 x
// over x in [0, 0.4] m, given as a 16-bit PNG and PGM heightmap, a CSV height grid and an OBJ
// mesh: every column's top (max z + r) must match the ramp within one particle radius (Heyn
// 2009, sec. 6.1.2-6.1.3: the surface re-sampled at the particle spacing), no two spheres may
// overlap, and strata must hold their own sizes. Also: building per region gives the same
// spheres as building all at once, bit for bit.

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>

#include "io/gray_image.h"
#include "terrain_node/config/terrain_config.h"
#include "tests/support/config_errors.h"
#include "tests/support/sphere_checks.h"

namespace trackcosim::terrain {
namespace {

constexpr double kRadius = 0.005;
constexpr double kLength = 0.4, kWidth = 0.2;
double ramp(double x) { return 0.05 + 0.25 * x; }  // 0.05 at x = 0 .. 0.15 at x = 0.4

std::filesystem::path scratch(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "trackcosim_surface_fill_test";
  std::filesystem::create_directories(dir);
  return dir / name;
}

/// The ramp as a picture: value c / (W - 1) in every row, so elevation [0.05, 0.15] maps it back.
io::GrayImage ramp_image() {
  io::GrayImage image;
  image.width = 41, image.height = 21;
  for (std::size_t r = 0; r < image.height; ++r)
    for (std::size_t c = 0; c < image.width; ++c) image.value.push_back(double(c) / double(image.width - 1));
  return image;
}

std::filesystem::path ramp_csv() {
  const std::filesystem::path file = scratch("ramp.csv");
  std::ofstream out(file);
  out << "# ramp heights, x along a row\n";
  for (int row = 0; row < 3; ++row)
    for (int c = 0; c <= 8; ++c) out << ramp(kLength * c / 8) << (c < 8 ? "," : "\n");
  return file;
}

std::filesystem::path ramp_obj() {
  const std::filesystem::path file = scratch("ramp.obj");
  std::ofstream out(file);
  out << "v 0 0 " << ramp(0) << "\nv " << kLength << " 0 " << ramp(kLength) << "\nv " << kLength << " " << kWidth
      << " " << ramp(kLength) << "\nv 0 " << kWidth << " " << ramp(0) << "\nf 1 2 3\nf 1/1 3/3 -1\n";
  return file;
}

std::string scene(const std::string& source) {
  return R"({"end_time": 0, "container": {"min": [0, 0, 0], "max": [0.4, 0.2, 0.5]}, "particles": [)" + source + "]}";
}

std::string surface_source(const std::string& kind, const std::filesystem::path& file, const std::string& extra) {
  return R"({"kind": ")" + kind + R"(", "file": ")" + file.string() + R"(", "min": [0, 0], "max": [0.4, 0.2], )" +
         extra + R"("radius": 0.005, "seed": 4})";
}

/// Checks the ramp's columns: top within one radius of the ramp, bottom on the floor, no overlap.
void expect_ramp_bed(const TerrainConfig& c) {
  const std::vector<test::PlacedSphere> spheres = test::dynamic_spheres(c.bodies);
  ASSERT_GT(spheres.size(), 5000u);
  std::map<std::pair<double, double>, double> top;  // column (its x, y) -> max z + r
  for (const test::PlacedSphere& s : spheres) {
    auto [it, fresh] = top.try_emplace({s.center.x, s.center.y}, s.center.z + s.radius);
    if (!fresh) it->second = std::max(it->second, double(s.center.z + s.radius));
    EXPECT_GE(s.center.z - s.radius, -1e-12) << "below the floor";
  }
  // Pitch 2 r (1 + 0.1) = 0.011 m: 36 x 18 columns, all non-empty (the ramp is above 2 r everywhere).
  EXPECT_EQ(top.size(), 36u * 18u);
  double worst = 0;
  for (const auto& [xy, z] : top) worst = std::max(worst, std::abs(z - ramp(xy.first)));
  EXPECT_LE(worst, kRadius) << "a column's top is more than one particle radius off the ramp";
  EXPECT_GE(test::smallest_gap(spheres, 4 * kRadius), -1e-12) << "two spheres overlap";
}

TEST(SurfaceFill, HeightmapPngOfARampGivesItsTopSurface) {
  io::write_gray_png(scratch("ramp.png"), ramp_image());
  expect_ramp_bed(parse_terrain_config(
      scene(surface_source("heightmap", scratch("ramp.png"), R"("elevation": [0.05, 0.15], )")), "ramp.json"));
}

TEST(SurfaceFill, HeightmapPgmOfARampGivesItsTopSurface) {
  io::write_gray_pgm(scratch("ramp.pgm"), ramp_image());
  expect_ramp_bed(parse_terrain_config(
      scene(surface_source("heightmap", scratch("ramp.pgm"), R"("elevation": [0.05, 0.15], )")), "ramp.json"));
}

TEST(SurfaceFill, ElevationCsvOfARampGivesItsTopSurface) {
  expect_ramp_bed(parse_terrain_config(scene(surface_source("elevation_grid", ramp_csv(), "")), "ramp.json"));
}

TEST(SurfaceFill, ObjMeshOfARampGivesItsTopSurface) {
  expect_ramp_bed(parse_terrain_config(scene(surface_source("elevation_grid", ramp_obj(), "")), "ramp.json"));
}

TEST(SurfaceFill, StrataKeepTheirSizesAndDoNotOverlap) {
  const TerrainConfig c = parse_terrain_config(
      scene(R"({"kind": "elevation_grid", "file": ")" + ramp_csv().string() +
            R"(", "min": [0, 0], "max": [0.4, 0.2], "seed": 2,
               "strata": [{"thickness": 0.04, "radius": 0.008}, {"radius": [0.003, 0.004]}]})"),
      "strata.json");
  const std::vector<test::PlacedSphere> spheres = test::dynamic_spheres(c.bodies);
  std::size_t coarse = 0, fine = 0;
  for (const test::PlacedSphere& s : spheres) {
    if (s.radius == real(0.008)) {
      ++coarse;
      EXPECT_LE(s.center.z + s.radius, 0.04 + 1e-12) << "a coarse sphere above its stratum";
    } else {
      ++fine;
      EXPECT_GE(s.radius, 0.003);
      EXPECT_LT(s.radius, 0.004);
      EXPECT_GE(s.center.z - s.radius, 0.04 - 1e-12) << "a fine sphere below its stratum";
      EXPECT_LE(s.center.z + s.radius, ramp(s.center.x) + 1e-9) << "a fine sphere above the surface";
    }
  }
  // 2 full layers of pitch 0.0176 in 0.04 m; 22 x 11 columns of the coarse grid.
  EXPECT_EQ(coarse, 2u * 22u * 11u);
  EXPECT_GT(fine, 10 * coarse);
  EXPECT_GE(test::smallest_gap(spheres, 0.02), -1e-12);
}

/// A scene with every generated kind; splitting space in three slabs along x and building each
/// must give exactly the spheres (gids, bits) that one build gives.
TEST(SurfaceFill, RegionsTogetherBuildTheWholeSceneOnce) {
  io::write_gray_png(scratch("ramp.png"), ramp_image());
  const std::string text = R"({"end_time": 0, "container": {"min": [0, 0, 0], "max": [0.4, 0.6, 0.5]},
    "particles": [
      {"kind": "heightmap", "file": ")" + scratch("ramp.png").string() + R"(", "min": [0, 0], "max": [0.4, 0.2],
       "elevation": [0.05, 0.15], "radius": {"distribution": "normal", "mean": 0.005, "std": 0.001, "min": 0.003, "max": 0.006}},
      {"kind": "random_fill", "min": [0, 0.2, 0], "max": [0.4, 0.4, 0.1], "radius": [0.004, 0.006], "gap": 0.0005,
       "packing": 0.2, "seed": 9},
      {"kind": "lattice", "min": [0, 0.4, 0], "max": [0.4, 0.6, 0.05], "spacing": 0.0125, "radius": 0.005, "jitter": 0.05},
      {"kind": "layers", "min": [0, 0.4], "max": [0.4, 0.6], "bottom": 0.05, "layers": 2, "radius": 0.005}]})";
  const TerrainConfig all = parse_terrain_config(text, "regions.json");
  const std::uint64_t particles = body_count(all.scene) - 5;
  const real inf = std::numeric_limits<real>::infinity();
  const real cuts[] = {-inf, 0.13, 0.271, inf};
  std::vector<test::PlacedSphere> together;
  std::uint64_t built_total = 0;
  for (int k = 0; k < 3; ++k) {
    std::uint64_t built = 0;
    const gpu::BodySet part = build_terrain_bodies(all.scene, {{cuts[k], -inf, -inf}, {cuts[k + 1], inf, inf}}, &built);
    const std::vector<test::PlacedSphere> s = test::dynamic_spheres(part);
    EXPECT_EQ(built, s.size());
    EXPECT_LT(built, particles) << "a region built everything";
    built_total += built;
    together.insert(together.end(), s.begin(), s.end());
  }
  std::sort(together.begin(), together.end(), [](const auto& a, const auto& b) { return a.gid < b.gid; });
  const std::vector<test::PlacedSphere> whole = test::dynamic_spheres(all.bodies);
  EXPECT_EQ(built_total, particles);
  ASSERT_EQ(together.size(), whole.size());
  for (std::size_t i = 0; i < whole.size(); ++i) {
    ASSERT_EQ(together[i].gid, whole[i].gid);
    ASSERT_EQ(std::memcmp(&together[i].center, &whole[i].center, sizeof(Vec3)), 0) << "gid " << whole[i].gid;
    ASSERT_EQ(std::memcmp(&together[i].radius, &whole[i].radius, sizeof(real)), 0) << "gid " << whole[i].gid;
  }
  // The resolved config (run.json) loads back to the same bodies.
  const TerrainConfig again = parse_terrain_config(resolved_config_json(all.scene).dump(), "resolved.json");
  const std::vector<test::PlacedSphere> reloaded = test::dynamic_spheres(again.bodies);
  ASSERT_EQ(reloaded.size(), whole.size());
  EXPECT_EQ(std::memcmp(reloaded.data(), whole.data(), whole.size() * sizeof(test::PlacedSphere)), 0);
}

TEST(SurfaceFill, BadInputNamesTheKey) {
  const std::string missing = scratch("missing.png").string();
  EXPECT_TRUE(test::starts_with(
      test::config_error_message([](const std::string& t) { return parse_terrain_config(t, "t.json"); },
                                 scene(surface_source("heightmap", missing, R"("elevation": [0.05, 0.15], )"))),
      "t.json: particles[0].file: " + missing));
  EXPECT_EQ(test::config_error_message([](const std::string& t) { return parse_terrain_config(t, "t.json"); },
                                       scene(surface_source("heightmap", missing, R"("elevation": [0.2, 0.1], )"))),
            "t.json: particles[0].elevation: expected [lowest, highest] with highest > lowest, got [0.2, 0.1]");
  EXPECT_EQ(test::config_error_message([](const std::string& t) { return parse_terrain_config(t, "t.json"); },
                                       scene(surface_source("elevation_grid", scratch("ramp.txt"), ""))),
            "t.json: particles[0].file: expected a .csv height grid or an .obj mesh, got '.txt'");
}

}  // namespace
}  // namespace trackcosim::terrain

namespace trackcosim::terrain {
namespace {

TEST(GeneratorExamples, ShippedHeightmapAndSpeedBumpScenesLoad) {
  const std::filesystem::path configs = std::filesystem::path(TRACKCOSIM_SOURCE_DIR) / "configs";
  const TerrainConfig hill = load_terrain_config(configs / "heightmap_terrain.json");
  const std::vector<test::PlacedSphere> grains = test::dynamic_spheres(hill.bodies);
  EXPECT_EQ(grains.size(), 7389u);  // as configs/README.md says
  EXPECT_GE(test::smallest_gap(grains, 0.02), -1e-12);
  const TerrainConfig bump = load_terrain_config(configs / "speed_bump.json");
  ASSERT_EQ(bump.scene.obstacles.size(), 1u);
  const std::vector<test::PlacedSphere> fill = test::dynamic_spheres(bump.bodies);
  EXPECT_EQ(fill.size(), std::get<RandomFillSource>(bump.scene.particles[0].generator).fill.count);
  EXPECT_EQ(fill.size(), 10650u);
  const ObstacleSet bumps(bump.scene.obstacles);
  for (const test::PlacedSphere& s : fill) ASSERT_FALSE(bumps.overlaps(s.center, s.radius));
  EXPECT_GE(test::smallest_gap(fill, 0.03), 0.001 - 1e-12);
}

}  // namespace
}  // namespace trackcosim::terrain
