// The scene file loader: each item kind becomes the right shapes (compound members rotated into
// the world frame, checked against hand-computed positions), the lattice generator is
// deterministic with known counts and bounds, and every kind of bad input is a ConfigError whose
// message names the file and the JSON path of the offending key.

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "terrain_node/contacts/scene_file.h"
#include "tests/support/config_errors.h"

namespace trackcosim::terrain {
namespace {

constexpr real kTolerance = 1e-12;

SceneFile parse(const std::string& text) { return parse_scene(text, "scene.json"); }

/// The message of the ConfigError that `text` raises, or a test failure when it loads.
std::string config_error(const std::string& text) { return test::config_error_message(parse, text); }

using test::starts_with;

TEST(SceneFile, SpheresAreOneShapeBodies) {
  const SceneFile s = parse(R"({"spheres": [{"id": 7, "center": [1, 2, 3], "radius": 0.5},
                                            {"id": 9, "center": [-1, 0, 0.25], "radius": 2}]})");
  const gpu::SphereShapes& sp = s.shapes.spheres;
  ASSERT_EQ(sp.size(), 2u);
  EXPECT_EQ(sp.x[0], 1);
  EXPECT_EQ(sp.y[0], 2);
  EXPECT_EQ(sp.z[0], 3);
  EXPECT_EQ(sp.radius[0], 0.5);
  EXPECT_EQ(sp.body_gid[0], 7u);
  EXPECT_EQ(sp.shape_index[0], 0u);
  EXPECT_EQ(sp.z[1], 0.25);
  EXPECT_EQ(sp.body_gid[1], 9u);
  EXPECT_TRUE(s.shapes.planes.empty());
  EXPECT_TRUE(s.shapes.boxes.empty());
}

TEST(SceneFile, PlaneNormalIsNormalised) {
  const SceneFile s = parse(R"({"planes": [{"id": 1, "point": [0, 0, -1], "normal": [0, 3, 4]}]})");
  ASSERT_EQ(s.shapes.planes.size(), 1u);
  const gpu::PlaneShape& p = s.shapes.planes[0];
  EXPECT_EQ(p.body_gid, 1u);
  EXPECT_EQ(p.point.z, -1);
  EXPECT_NEAR(p.normal.x, 0, kTolerance);
  EXPECT_NEAR(p.normal.y, 0.6, kTolerance);
  EXPECT_NEAR(p.normal.z, 0.8, kTolerance);
}

TEST(SceneFile, BoxOrientationDefaultsToIdentityAndIsNormalised) {
  const SceneFile s = parse(R"({"boxes": [
      {"id": 2, "center": [1, 1, 1], "half_extents": [0.5, 0.25, 2]},
      {"id": 3, "center": [0, 0, 0], "half_extents": [1, 1, 1], "orientation": [2, 0, 0, 2]}]})");
  ASSERT_EQ(s.shapes.boxes.size(), 2u);
  const gpu::BoxShape& plain = s.shapes.boxes[0];
  EXPECT_EQ(plain.half_extents.y, 0.25);
  EXPECT_EQ(plain.orientation.w, 1);
  EXPECT_EQ(plain.orientation.x, 0);
  const Quat q = s.shapes.boxes[1].orientation;
  EXPECT_NEAR(q.w, std::sqrt(0.5), kTolerance);
  EXPECT_NEAR(q.z, std::sqrt(0.5), kTolerance);
  EXPECT_EQ(s.shapes.boxes[1].body_gid, 3u);
}

// Orientation [1, 1, 0, 0] normalises to a 90 degree turn about x: body y -> world z, body z ->
// world -y. World centre = position + rotate(q, offset).
TEST(SceneFile, CompoundSpheresAreRotatedIntoTheWorldFrame) {
  const SceneFile s = parse(R"({"compounds": [{"id": 5, "position": [10, 20, 30], "orientation": [1, 1, 0, 0],
      "spheres": [{"offset": [1, 0, 0], "radius": 0.1},
                  {"offset": [0, 2, 0], "radius": 0.2},
                  {"offset": [0, 0, 3], "radius": 0.3}]}]})");
  const gpu::SphereShapes& sp = s.shapes.spheres;
  ASSERT_EQ(sp.size(), 3u);
  const Vec3 expected[3] = {{11, 20, 30}, {10, 20, 32}, {10, 17, 30}};
  for (std::size_t k = 0; k < 3; ++k) {
    SCOPED_TRACE(k);
    EXPECT_NEAR(sp.x[k], expected[k].x, kTolerance);
    EXPECT_NEAR(sp.y[k], expected[k].y, kTolerance);
    EXPECT_NEAR(sp.z[k], expected[k].z, kTolerance);
    EXPECT_EQ(sp.body_gid[k], 5u);
    EXPECT_EQ(sp.shape_index[k], k);
    EXPECT_NEAR(sp.radius[k], 0.1 * real(k + 1), kTolerance);
  }
}

// 30 degrees about z, q = [cos 15deg, 0, 0, sin 15deg]: offset (1, 0, 0) -> (cos 30, sin 30, 0).
TEST(SceneFile, CompoundWithGeneralRotation) {
  const SceneFile s = parse(R"({"compounds": [{"id": 5, "position": [1, 2, 3],
      "orientation": [0.9659258262890683, 0, 0, 0.25881904510252074],
      "spheres": [{"offset": [1, 0, 0.5], "radius": 0.1}]}]})");
  const gpu::SphereShapes& sp = s.shapes.spheres;
  ASSERT_EQ(sp.size(), 1u);
  EXPECT_NEAR(sp.x[0], 1 + std::sqrt(3.0) / 2, kTolerance);
  EXPECT_NEAR(sp.y[0], 2.5, kTolerance);
  EXPECT_NEAR(sp.z[0], 3.5, kTolerance);
}

TEST(SceneFile, CollisionSettingsAndDefaults) {
  // Absent keys keep the detector's own defaults, which docs/scene-format.md lists.
  const SceneFile defaults = parse("{}");
  const gpu::CollisionSettings detector_defaults;
  EXPECT_EQ(defaults.collision.envelope, detector_defaults.envelope);
  EXPECT_EQ(defaults.collision.bin_size, detector_defaults.bin_size);
  EXPECT_EQ(defaults.collision.bin_size_factor, detector_defaults.bin_size_factor);
  EXPECT_EQ(defaults.collision.max_contacts_per_body_pair, detector_defaults.max_contacts_per_body_pair);
  const SceneFile s = parse(R"({"collision": {"envelope": 0.001, "bin_size": 0.05, "bin_size_factor": 2.5,
                                              "max_contacts_per_body_pair": 0}})");
  EXPECT_EQ(s.collision.envelope, 0.001);
  EXPECT_EQ(s.collision.bin_size, 0.05);
  EXPECT_EQ(s.collision.bin_size_factor, 2.5);
  EXPECT_EQ(s.collision.max_contacts_per_body_pair, 0u);
}

TEST(SceneFile, CommentsAreAllowed) {
  const SceneFile s = parse(R"(// a scene
      { /* the only sphere */ "spheres": [{"id": 1, "center": [0, 0, 0], "radius": 1}] // done
      })");
  EXPECT_EQ(s.shapes.spheres.size(), 1u);
}

// 0.1 / 0.03 -> 3 cells per axis; the spare 0.01 is split evenly, so the cell centres are at
// 0.02, 0.05, 0.08 on each axis.
constexpr const char* kLattice = R"({"lattice": {"first_id": 100, "min": [0, 0, 0], "max": [0.1, 0.1, 0.1],
    "spacing": 0.03, "radius": [0.01, 0.014], "jitter": JITTER, "seed": SEED}})";

std::string lattice_text(const std::string& jitter, const std::string& seed) {
  std::string text = kLattice;
  text.replace(text.find("JITTER"), 6, jitter);
  text.replace(text.find("SEED"), 4, seed);
  return text;
}

TEST(SceneFileLattice, WithoutJitterSpheresSitOnCentredCells) {
  const gpu::SphereShapes sp = parse(lattice_text("0", "1")).shapes.spheres;
  ASSERT_EQ(sp.size(), 27u);
  const real centre[3] = {0.02, 0.05, 0.08};
  for (std::size_t n = 0; n < 27; ++n) {
    SCOPED_TRACE(n);
    // Lattice order: x fastest, then y, then z; gids count up from first_id.
    EXPECT_NEAR(sp.x[n], centre[n % 3], kTolerance);
    EXPECT_NEAR(sp.y[n], centre[(n / 3) % 3], kTolerance);
    EXPECT_NEAR(sp.z[n], centre[n / 9], kTolerance);
    EXPECT_EQ(sp.body_gid[n], 100 + n);
    EXPECT_EQ(sp.shape_index[n], 0u);
    EXPECT_GE(sp.radius[n], 0.01);
    EXPECT_LT(sp.radius[n], 0.014);
  }
}

TEST(SceneFileLattice, JitterStaysWithinItsBound) {
  const gpu::SphereShapes sp = parse(lattice_text("0.2", "7")).shapes.spheres;
  ASSERT_EQ(sp.size(), 27u);
  const real centre[3] = {0.02, 0.05, 0.08};
  const real bound = 0.2 * 0.03 + kTolerance;
  real largest_offset = 0;
  for (std::size_t n = 0; n < 27; ++n) {
    const real offsets[3] = {sp.x[n] - centre[n % 3], sp.y[n] - centre[(n / 3) % 3], sp.z[n] - centre[n / 9]};
    for (const real d : offsets) {
      EXPECT_LE(std::fabs(d), bound);
      largest_offset = std::max(largest_offset, std::fabs(d));
    }
  }
  EXPECT_GT(largest_offset, 0.5 * 0.2 * 0.03) << "jitter had no visible effect";
}

TEST(SceneFileLattice, SameSeedSameSpheresOtherSeedOthers) {
  const gpu::SphereShapes a = parse(lattice_text("0.2", "7")).shapes.spheres;
  const gpu::SphereShapes b = parse(lattice_text("0.2", "7")).shapes.spheres;
  const gpu::SphereShapes c = parse(lattice_text("0.2", "8")).shapes.spheres;
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(0, std::memcmp(a.x.data(), b.x.data(), a.size() * sizeof(real)));
  EXPECT_EQ(0, std::memcmp(a.radius.data(), b.radius.data(), a.size() * sizeof(real)));
  EXPECT_NE(a.x, c.x);
  EXPECT_NE(a.radius, c.radius);
}

// Golden values: the first sphere of seed 7 as documented in docs/scene-format.md (mt19937_64,
// top 53 bits / 2^53; jitter x, y, z, then radius), checked once against an independent
// implementation of mt19937_64. A change here changes every lattice scene ever written.
TEST(SceneFileLattice, RandomStreamIsPinned) {
  const gpu::SphereShapes sp = parse(lattice_text("0.2", "7")).shapes.spheres;
  EXPECT_EQ(sp.x[0], 0.023052623649834299);
  EXPECT_EQ(sp.y[0], 0.025391614434711732);
  EXPECT_EQ(sp.z[0], 0.01540897137241422);
  EXPECT_EQ(sp.radius[0], 0.013567652706849904);
  EXPECT_EQ(sp.radius[26], 0.011093719635845984);
}

TEST(SceneFileLattice, CountsFollowTheBox) {
  const gpu::SphereShapes sp = parse(R"({"lattice": {"first_id": 0, "min": [-1, 0, 0], "max": [1, 0.5, 0.3],
      "spacing": 0.1, "radius": [0.04, 0.04]}})").shapes.spheres;
  EXPECT_EQ(sp.size(), 20u * 5u * 3u);
  EXPECT_EQ(sp.body_gid.back(), 299u);
  for (std::size_t n = 0; n < sp.size(); ++n) {
    EXPECT_GE(sp.x[n] - sp.radius[n], -1 - kTolerance);
    EXPECT_LE(sp.x[n] + sp.radius[n], 1 + kTolerance);
    EXPECT_LE(sp.z[n] + sp.radius[n], 0.3 + kTolerance);
  }
}

TEST(SceneFileErrors, MessageNamesFileAndPath) {
  EXPECT_EQ(config_error(R"({"spheres": [{"id": 0, "center": [0, 0, 0], "radius": 1},
                                         {"id": 1, "center": [0, 0, 0], "radius": 1},
                                         {"id": 2, "center": [0, 0, 0], "radius": 1},
                                         {"id": 3, "center": [0, 0, 0], "radius": -1}]})"),
            "scene.json: spheres[3].radius: must be > 0, got -1");
}

TEST(SceneFileErrors, UnknownKey) {
  EXPECT_TRUE(starts_with(config_error(R"({"sphere": []})"), "scene.json: sphere: unknown key"));
  EXPECT_EQ(config_error(R"({"spheres": [{"id": 1, "center": [0, 0, 0], "raduis": 1}]})"),
            "scene.json: spheres[0].raduis: unknown key (expected one of: id, center, radius)");
  EXPECT_TRUE(
      starts_with(config_error(R"({"collision": {"envelop": 0.1}})"), "scene.json: collision.envelop: unknown key"));
}

TEST(SceneFileErrors, WrongType) {
  EXPECT_EQ(config_error(R"({"spheres": [{"id": 1, "center": [0, 0, 0], "radius": "big"}]})"),
            "scene.json: spheres[0].radius: expected a number, got string");
  EXPECT_EQ(config_error(R"({"planes": {"id": 1}})"), "scene.json: planes: expected an array, got object");
  EXPECT_EQ(config_error(R"({"boxes": [{"id": 1, "center": [0, 0], "half_extents": [1, 1, 1]}]})"),
            "scene.json: boxes[0].center: expected an array of 3 numbers, got an array of 2 elements");
  EXPECT_EQ(config_error(R"({"spheres": [{"id": 1, "center": [0, "y", 0], "radius": 1}]})"),
            "scene.json: spheres[0].center[1]: expected a number, got string");
  EXPECT_EQ(config_error(R"({"spheres": [{"id": 1.5, "center": [0, 0, 0], "radius": 1}]})"),
            "scene.json: spheres[0].id: expected a non-negative integer, got the number 1.5");
  EXPECT_EQ(config_error(R"({"spheres": [{"id": -4, "center": [0, 0, 0], "radius": 1}]})"),
            "scene.json: spheres[0].id: must be >= 0, got -4");
  EXPECT_EQ(config_error("[]"), "scene.json: expected an object, got an array of 0 elements");
}

TEST(SceneFileErrors, MissingRequiredField) {
  EXPECT_EQ(config_error(R"({"spheres": [{"id": 1, "radius": 1}]})"),
            "scene.json: spheres[0].center: required key is missing");
  EXPECT_EQ(config_error(R"({"lattice": {"min": [0, 0, 0], "max": [1, 1, 1], "spacing": 0.1,
                                         "radius": [0.01, 0.02]}})"),
            "scene.json: lattice.first_id: required key is missing");
}

TEST(SceneFileErrors, ImpossibleValues) {
  EXPECT_EQ(config_error(R"({"collision": {"envelope": -0.001}})"),
            "scene.json: collision.envelope: must be >= 0, got -0.001");
  EXPECT_EQ(config_error(R"({"collision": {"bin_size_factor": 0}})"),
            "scene.json: collision.bin_size_factor: must be > 0, got 0");
  EXPECT_EQ(config_error(R"({"boxes": [{"id": 1, "center": [0, 0, 0], "half_extents": [1, 0, 1]}]})"),
            "scene.json: boxes[0].half_extents: must all be > 0, got [1, 0, 1]");
  EXPECT_EQ(config_error(R"({"boxes": [{"id": 1, "center": [0, 0, 0], "half_extents": [1, 1, 1],
                                        "orientation": [0, 0, 0, 0]}]})"),
            "scene.json: boxes[0].orientation: must be a non-zero quaternion [w, x, y, z], got [0, 0, 0, 0]");
  EXPECT_EQ(config_error(R"({"compounds": [{"id": 1, "position": [0, 0, 0], "spheres": []}]})"),
            "scene.json: compounds[0].spheres: a compound needs at least one sphere");
  EXPECT_EQ(config_error(R"({"compounds": [{"id": 1, "position": [0, 0, 0],
                                            "spheres": [{"offset": [0, 0, 0], "radius": 0}]}]})"),
            "scene.json: compounds[0].spheres[0].radius: must be > 0, got 0");
  // JSON has no NaN or infinity literal; an overflowing number is the nearest thing to one.
  EXPECT_EQ(config_error(R"({"spheres": [{"id": 1, "center": [0, 1e999, 0], "radius": 1}]})"),
            "scene.json: spheres[0].center[1]: number overflow parsing '1e999'");
  EXPECT_EQ(config_error(R"({"collision": {"envelope": -1e999}})"),
            "scene.json: collision.envelope: number overflow parsing '-1e999'");
}

TEST(SceneFileErrors, BadPlaneNormal) {
  EXPECT_EQ(config_error(R"({"planes": [{"id": 1, "point": [0, 0, 0], "normal": [0, 0, 0]}]})"),
            "scene.json: planes[0].normal: must be a non-zero vector, got [0, 0, 0]");
}

TEST(SceneFileErrors, BadLattice) {
  const std::string head = R"({"lattice": {"first_id": 0, "min": [0, 0, 0], "max": [1, 1, 1], )";
  EXPECT_EQ(config_error(head + R"("spacing": 0, "radius": [0.01, 0.02]}})"),
            "scene.json: lattice.spacing: must be > 0, got 0");
  EXPECT_EQ(config_error(head + R"("spacing": 0.1, "radius": [0.03, 0.02]}})"),
            "scene.json: lattice.radius: min must be <= max, got [0.03, 0.02]");
  EXPECT_EQ(config_error(head + R"("spacing": 0.1, "radius": [0.01, 0.02], "jitter": 0.6}})"),
            "scene.json: lattice.jitter: must be <= 0.5 (a fraction of spacing), got 0.6");
  EXPECT_TRUE(starts_with(config_error(head + R"("spacing": 2, "radius": [0.01, 0.02]}})"),
                          "scene.json: lattice.max: the box [min, max] holds no whole lattice cell along x"));
  EXPECT_TRUE(starts_with(config_error(head + R"("spacing": 0.0001, "radius": [0.01, 0.02]}})"),
                          "scene.json: lattice.spacing: the lattice would hold 1e+12 spheres"));
}

TEST(SceneFileErrors, DuplicateIdNamesBothPlaces) {
  EXPECT_EQ(config_error(R"({"planes": [{"id": 4, "point": [0, 0, 0], "normal": [0, 0, 1]}],
                             "spheres": [{"id": 4, "center": [0, 0, 0], "radius": 1}]})"),
            "scene.json: spheres[0].id: duplicate id 4, already used by planes[0].id");
  EXPECT_EQ(config_error(R"({"compounds": [{"id": 105, "position": [0, 0, 0],
                                            "spheres": [{"offset": [0, 0, 0], "radius": 1}]}],
                             "lattice": {"first_id": 100, "min": [0, 0, 0], "max": [1, 1, 1], "spacing": 0.5,
                                         "radius": [0.1, 0.1]}})"),
            "scene.json: compounds[0].id: duplicate id 105, already used by the lattice (lattice.first_id = 100 "
            "gives ids 100 to 107)");
}

TEST(SceneFileErrors, SyntaxErrorAndDuplicateKey) {
  EXPECT_TRUE(
      starts_with(config_error("{\n  \"spheres\": [\n}"), "scene.json: parse error at line 3, column 1"));
  EXPECT_EQ(config_error(R"({"spheres": [{"id": 1, "center": [0, 0, 0], "radius": 1, "radius": 2}]})"),
            "scene.json: spheres[0].radius: key given twice in one object");
}

TEST(SceneFileErrors, MissingFileIsAConfigError) {
  const std::filesystem::path missing = std::filesystem::temp_directory_path() / "trackcosim_no_such_scene.json";
  try {
    load_scene_file(missing);
    ADD_FAILURE() << "no io::ConfigError";
  } catch (const io::ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), missing.string() + ": cannot open the file for reading");
  }
}

TEST(SceneFile, LoadsFromAFileAndNamesItInErrors) {
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "trackcosim_scene_file_test.json";
  std::ofstream(file) << R"({"spheres": [{"id": 1, "center": [0, 0, 0], "radius": -2}]})";
  try {
    load_scene_file(file);
    ADD_FAILURE() << "no io::ConfigError";
  } catch (const io::ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), file.string() + ": spheres[0].radius: must be > 0, got -2");
  }
  std::filesystem::remove(file);
}

TEST(SceneFile, ShippedDemoLoads) {
  const SceneFile s = load_scene_file(std::filesystem::path(TRACKCOSIM_SOURCE_DIR) / "configs/demo_collision.json");
  EXPECT_EQ(s.shapes.spheres.size(), 20000u + 2 * 20u + 1u);  // lattice + two shoes + boulder
  EXPECT_EQ(s.shapes.planes.size(), 1u);
  EXPECT_EQ(s.shapes.boxes.size(), 4u);
  EXPECT_EQ(s.collision.max_contacts_per_body_pair, 8u);
}

}  // namespace
}  // namespace trackcosim::terrain
