// The terrain config loader: defaults, the container walls, deterministic gids (walls, then
// particles in file order), generators that give the same bodies bit for bit, the layered bed's
// layer count and heights, run.json's resolved config loading back to the same bodies, and every
// kind of bad input as a ConfigError naming the file and the key path.

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <numbers>
#include <set>
#include <string>

#include "terrain_node/config/terrain_config.h"
#include "tests/support/config_errors.h"

namespace trackcosim::terrain {
namespace {

TerrainConfig parse(const std::string& text) { return parse_terrain_config(text, "terrain.json"); }

std::string config_error(const std::string& text) { return test::config_error_message(parse, text); }

using test::starts_with;

template <typename T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

/// Every per-body and per-sphere array of two BodySets holds the same bits.
::testing::AssertionResult same_bodies(const gpu::BodySet& a, const gpu::BodySet& b) {
  const bool same = same_bits(a.gid, b.gid) && same_bits(a.px, b.px) && same_bits(a.py, b.py) &&
                    same_bits(a.pz, b.pz) && same_bits(a.qw, b.qw) && same_bits(a.qx, b.qx) &&
                    same_bits(a.qy, b.qy) && same_bits(a.qz, b.qz) && same_bits(a.vx, b.vx) &&
                    same_bits(a.vy, b.vy) && same_bits(a.vz, b.vz) && same_bits(a.wx, b.wx) &&
                    same_bits(a.wy, b.wy) && same_bits(a.wz, b.wz) && same_bits(a.mass, b.mass) &&
                    same_bits(a.ix, b.ix) && same_bits(a.iy, b.iy) && same_bits(a.iz, b.iz) &&
                    same_bits(a.motion, b.motion) && same_bits(a.friction, b.friction) &&
                    same_bits(a.sphere_body, b.sphere_body) && same_bits(a.sphere_ox, b.sphere_ox) &&
                    same_bits(a.sphere_oy, b.sphere_oy) && same_bits(a.sphere_oz, b.sphere_oz) &&
                    same_bits(a.sphere_radius, b.sphere_radius) && same_bits(a.plane_body, b.plane_body) &&
                    a.planes.size() == b.planes.size();
  if (same) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "body sets differ (" << a.size() << " vs " << b.size() << " bodies)";
}

constexpr const char* kBox = R"("container": {"min": [0, 0, 0], "max": [0.2, 0.1, 0.5]})";

/// A scene using every source kind, in a container.
const std::string kFullScene = std::string("{") + kBox + R"(,
  "material": {"friction": 0.4, "density": 2000},
  "particles": [
    {"kind": "lattice", "min": [0, 0, 0], "max": [0.2, 0.1, 0.1], "spacing": 0.025,
     "radius": [0.008, 0.01], "jitter": 0.05, "seed": 7},
    {"kind": "layers", "min": [0, 0], "max": [0.2, 0.1], "bottom": 0.1, "layers": 3, "radius": 0.01,
     "seed": 3, "material": {"friction": 0.2}},
    {"kind": "spheres", "spheres": [{"position": [0.1, 0.05, 0.3], "radius": 0.02, "velocity": [0, 0, -1]}]},
    {"kind": "compounds", "bodies": [{"position": [0.1, 0.05, 0.4], "mass": 2, "inertia": [0.1, 0.2, 0.3],
      "spheres": [{"offset": [-0.02, 0, 0], "radius": 0.01}, {"offset": [0.02, 0, 0], "radius": 0.01}]}]}
  ],
  "end_time": 0.01,
  "output": {"probes": [0, 5]}
})";

TEST(TerrainConfig, DefaultsOfAMinimalConfig) {
  const TerrainConfig c = parse(R"({"end_time": 0.5})");
  const TerrainScene& s = c.scene;
  EXPECT_FALSE(s.container.has_value());
  EXPECT_EQ(s.material.friction, 0.5);
  EXPECT_EQ(s.material.density, 2500);
  EXPECT_TRUE(s.particles.empty());
  EXPECT_EQ(s.step.step_size, 1e-3);
  EXPECT_EQ(s.step.gravity.z, -9.81);
  const gpu::SolverSettings solver;
  EXPECT_EQ(s.step.solver.method, solver.method);
  EXPECT_EQ(s.step.solver.max_iterations, solver.max_iterations);
  EXPECT_EQ(s.step.solver.jacobi_omega, solver.jacobi_omega);
  EXPECT_EQ(s.step.solver.warm_start, solver.warm_start);
  EXPECT_FALSE(s.step.solver.preconditioned);
  EXPECT_EQ(s.step.collision.bin_size_factor, gpu::CollisionSettings{}.bin_size_factor);
  EXPECT_TRUE(s.output.probes.empty());
  EXPECT_EQ(s.output.probe_interval, 1u);
  EXPECT_EQ(s.output.snapshot_interval, 0u);
  EXPECT_TRUE(s.output.stats);
  EXPECT_EQ(s.output.progress_interval, 5);
  EXPECT_EQ(c.bodies.size(), 0u);
  EXPECT_EQ(c.step_count(), 500u);  // 0.5 / 1e-3 is 499.99999999999994 in doubles
}

TEST(TerrainConfig, SolverAndOutputKeysMapOntoTheSettings) {
  const TerrainConfig c = parse(R"({"end_time": 1, "step_size": 0.002, "gravity": [0, 0, -1.62],
    "solver": {"method": "jacobi", "max_iterations": 40, "tolerance": 1e-6, "residual_interval": 10,
               "omega": 0.5, "lambda": 0.9, "max_recovery_speed": 0.1, "warm_start": false, "rolling_friction": 0.4,
               "contact_stiffness": 1e6, "contact_damping": 50},
    "collision": {"envelope": 0.001, "bin_size": 0.05, "max_contacts_per_body_pair": 4},
    "output": {"probe_interval": 10, "snapshot_interval": 100, "stats": false, "progress_interval": 0}})");
  const gpu::StepSettings& s = c.scene.step;
  EXPECT_EQ(s.step_size, 0.002);
  EXPECT_EQ(s.gravity.z, -1.62);
  EXPECT_EQ(s.solver.method, gpu::SolverMethod::Jacobi);
  EXPECT_EQ(s.solver.max_iterations, 40u);
  EXPECT_EQ(s.solver.tolerance, 1e-6);
  EXPECT_EQ(s.solver.residual_interval, 10u);
  EXPECT_EQ(s.solver.jacobi_omega, 0.5);
  EXPECT_EQ(s.solver.jacobi_lambda, 0.9);
  EXPECT_EQ(s.solver.max_recovery_speed, 0.1);
  EXPECT_FALSE(s.solver.warm_start);
  EXPECT_EQ(s.solver.rolling_friction, 0.4);
  EXPECT_EQ(s.solver.contact_stiffness, 1e6);
  EXPECT_EQ(s.solver.contact_damping, 50);
  EXPECT_FALSE(s.solver.preconditioned);
  EXPECT_TRUE(parse(R"({"end_time": 1, "solver": {"preconditioned": true}})").scene.step.solver.preconditioned);
  EXPECT_EQ(s.collision.envelope, 0.001);
  EXPECT_EQ(s.collision.bin_size, 0.05);
  EXPECT_EQ(s.collision.max_contacts_per_body_pair, 4u);
  EXPECT_EQ(c.scene.output.probe_interval, 10u);
  EXPECT_EQ(c.scene.output.snapshot_interval, 100u);
  EXPECT_FALSE(c.scene.output.stats);
  EXPECT_EQ(c.scene.output.progress_interval, 0);
  EXPECT_EQ(c.step_count(), 500u);
}

TEST(TerrainConfig, ContainerWallsAreFixedPlanesWithTheirOwnFriction) {
  const TerrainConfig open = parse(std::string("{") + kBox + R"(, "end_time": 0})");
  ASSERT_EQ(open.bodies.size(), 5u);
  ASSERT_EQ(open.bodies.planes.size(), 5u);
  const TerrainConfig closed = parse(R"({"container": {"min": [0, 0, 0], "max": [1, 2, 3], "open_top": false,
    "floor_friction": 0.8, "wall_friction": 0}, "end_time": 0})");
  const gpu::BodySet& b = closed.bodies;
  ASSERT_EQ(b.size(), 6u);
  // Floor, -x, +x, -y, +y, lid: normals point into the box, points lie on the walls.
  const Vec3 normals[6] = {{0, 0, 1}, {1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, -1}};
  for (std::size_t i = 0; i < 6; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(b.gid[i], i);
    EXPECT_EQ(b.motion[i], gpu::Motion::Fixed);
    EXPECT_EQ(b.plane_body[i], i);
    const Vec3 n = b.planes[i].normal;
    EXPECT_EQ(n.x, normals[i].x);
    EXPECT_EQ(n.y, normals[i].y);
    EXPECT_EQ(n.z, normals[i].z);
    const Vec3 p{b.px[i], b.py[i], b.pz[i]};
    const real offset = dot(p, n);  // signed distance of the origin's projection: on the wall
    const real expected[6] = {0, 0, -1, 0, -2, -3};
    EXPECT_EQ(offset, expected[i]);
    EXPECT_EQ(b.friction[i], i == 0 ? 0.8 : 0.0);
  }
  EXPECT_EQ(closed.gid_ranges.front().what, "container.floor");
  EXPECT_EQ(closed.gid_ranges.back().what, "container.lid");
}

TEST(TerrainConfig, GidsAreWallsThenParticlesInFileOrder) {
  const TerrainConfig c = parse(kFullScene);
  const gpu::BodySet& b = c.bodies;
  for (std::size_t i = 0; i < b.size(); ++i) ASSERT_EQ(b.gid[i], i);
  ASSERT_EQ(c.gid_ranges.size(), 5u + 4u);
  std::uint64_t next = 0;
  for (const GidRange& r : c.gid_ranges) {
    EXPECT_EQ(r.first, next) << r.what;
    next += r.count;
  }
  EXPECT_EQ(next, b.size());
  // Lattice: 8 x 4 x 4 cells of 0.025 in 0.2 x 0.1 x 0.1; layers: 9 x 4 per layer (pitch 0.022).
  EXPECT_EQ(c.gid_ranges[5].what, "particles[0] (lattice)");
  EXPECT_EQ(c.gid_ranges[5].count, 8u * 4u * 4u);
  EXPECT_EQ(c.gid_ranges[6].what, "particles[1] (layers)");
  EXPECT_EQ(c.gid_ranges[6].count, 9u * 4u * 3u);
  EXPECT_EQ(c.gid_ranges[7].count, 1u);
  EXPECT_EQ(c.gid_ranges[8].count, 1u);
  // One sphere per body, except the compound's two; planes for the five walls.
  EXPECT_EQ(b.sphere_radius.size(), b.size() - 5 + 1);
  EXPECT_EQ(b.planes.size(), 5u);
}

TEST(TerrainConfig, SphereMassFollowsDensityAndMaterialOverrides) {
  const TerrainConfig c = parse(kFullScene);
  const gpu::BodySet& b = c.bodies;
  const std::size_t first_lattice = 5, first_layer = c.gid_ranges[6].first;
  for (const std::size_t i : {first_lattice, first_layer}) {
    const real r = b.sphere_radius[i - 5];
    const real density = 2000;
    EXPECT_NEAR(b.mass[i], density * 4.0 / 3.0 * std::numbers::pi * r * r * r, 1e-15);
    EXPECT_DOUBLE_EQ(b.ix[i], 0.4 * b.mass[i] * r * r);
    EXPECT_EQ(b.motion[i], gpu::Motion::Dynamic);
  }
  EXPECT_EQ(b.friction[first_lattice], 0.4);
  EXPECT_EQ(b.friction[first_layer], 0.2);  // the entry's own material
  const std::size_t sphere = c.gid_ranges[7].first, compound = c.gid_ranges[8].first;
  EXPECT_EQ(b.vz[sphere], -1);
  EXPECT_EQ(b.mass[compound], 2);
  EXPECT_EQ(b.iy[compound], 0.2);
  EXPECT_EQ(b.sphere_body.back(), compound);
  EXPECT_EQ(b.sphere_ox.back(), 0.02);
}

TEST(TerrainConfig, SameConfigSameBodiesBitForBitOtherSeedOthers) {
  const TerrainConfig a = parse(kFullScene), b = parse(kFullScene);
  EXPECT_TRUE(same_bodies(a.bodies, b.bodies));
  std::string reseeded = kFullScene;
  reseeded.replace(reseeded.find("\"seed\": 7"), 9, "\"seed\": 8");
  const TerrainConfig other = parse(reseeded);
  ASSERT_EQ(other.bodies.size(), a.bodies.size());
  EXPECT_FALSE(same_bits(other.bodies.px, a.bodies.px));
}

TEST(TerrainConfig, LatticeSpheresAreThoseOfTheSharedLatticeGenerator) {
  const TerrainConfig c = parse(kFullScene);
  SphereLattice lattice = std::get<LatticeSource>(c.scene.particles[0].generator);
  lattice.first_id = 5;
  gpu::SphereShapes spheres;
  generate_lattice(lattice, spheres);
  ASSERT_EQ(spheres.size(), c.gid_ranges[5].count);
  for (std::size_t k = 0; k < spheres.size(); ++k) {
    const std::size_t body = 5 + k;
    ASSERT_EQ(spheres.body_gid[k], c.bodies.gid[body]);
    ASSERT_EQ(spheres.x[k], c.bodies.px[body]);
    ASSERT_EQ(spheres.z[k], c.bodies.pz[body]);
    ASSERT_EQ(spheres.radius[k], c.bodies.sphere_radius[k]);
  }
}

TEST(TerrainConfigLayers, LayerCountAndHeights) {
  // Pitch d = 2 * 0.01 * (1 + 0.1) = 0.022: 9 x 4 cells per layer in 0.2 x 0.1.
  const TerrainConfig c = parse(R"({"particles": [{"kind": "layers", "min": [0, 0], "max": [0.2, 0.1],
    "bottom": 0.05, "layers": 5, "radius": 0.01, "gap": 0.1, "seed": 11}], "end_time": 0})");
  const gpu::BodySet& b = c.bodies;
  constexpr real d = 0.022;
  ASSERT_EQ(b.size(), 5u * 9u * 4u);
  std::set<real> heights(b.pz.begin(), b.pz.end());
  ASSERT_EQ(heights.size(), 5u);  // every sphere of a layer at the same height
  int k = 0;
  for (const real z : heights) EXPECT_NEAR(z, 0.05 + (k++ + 0.5) * d, 1e-12);
  // Each layer: 36 spheres, in plane within radius * gap of their cell centre, never overlapping.
  const real x0 = 0.5 * (0.2 - 9 * d) + 0.5 * d, y0 = 0.5 * (0.1 - 4 * d) + 0.5 * d;
  for (std::size_t i = 0; i < b.size(); ++i) {
    const std::size_t cell = i % 36;
    EXPECT_LE(std::abs(b.px[i] - (x0 + real(cell % 9) * d)), 0.01 * 0.1 + 1e-12);
    EXPECT_LE(std::abs(b.py[i] - (y0 + real(cell / 9) * d)), 0.01 * 0.1 + 1e-12);
    for (std::size_t j = 0; j < i; ++j) {
      const real dx = b.px[i] - b.px[j], dy = b.py[i] - b.py[j], dz = b.pz[i] - b.pz[j];
      ASSERT_GE(std::sqrt(dx * dx + dy * dy + dz * dz), 0.02 - 1e-12) << i << " " << j;
    }
  }
  // Not a plain lattice: the in-plane positions are random.
  EXPECT_NE(b.px[0], b.px[36]);
}

TEST(TerrainConfig, ResolvedConfigListsDefaultsAndLoadsToTheSameBodies) {
  const TerrainConfig c = parse(kFullScene);
  const nlohmann::ordered_json resolved = resolved_config_json(c.scene);
  EXPECT_EQ(resolved["solver"]["method"], "apgd");
  EXPECT_EQ(resolved["step_size"], 1e-3);
  EXPECT_EQ(resolved["particles"][1]["gap"], 0.1);
  EXPECT_EQ(resolved["particles"][1]["material"]["density"], 2000);
  EXPECT_EQ(resolved["container"]["wall_friction"], 0.4);
  const TerrainConfig again = parse(resolved.dump());
  EXPECT_TRUE(same_bodies(again.bodies, c.bodies));
  EXPECT_EQ(resolved_config_json(again.scene).dump(), resolved.dump());
}

TEST(TerrainConfig, ShippedExamplesLoad) {
  const std::filesystem::path configs = std::filesystem::path(TRACKCOSIM_SOURCE_DIR) / "configs";
  const TerrainConfig small = load_terrain_config(configs / "settle_small.json");
  EXPECT_GT(small.bodies.size(), 1000u);
  EXPECT_LT(small.bodies.size(), 10000u);
  // The large one is only described here; building 10^6 bodies is the program's job.
  const TerrainScene large = read_terrain_scene(io::load_json_document(configs / "settle_large.json"), "settle_large.json");
  std::uint64_t count = 0;
  for (const GidRange& r : plan_gid_ranges(large)) count += r.count;
  EXPECT_GE(count, 1'000'000u);
  EXPECT_LT(count, 1'100'000u);
  EXPECT_EQ(large.step.step_size, 1e-3);
  EXPECT_EQ(large.material.friction, 0.5);
}

// The heavy vehicles' gravel (issue 15): at least 10^5 grains, as their comments count them,
// with rolling resistance on, and the moving patch.
TEST(TerrainConfig, HeavyVehicleBedsHoldTheirCommentedGrainCounts) {
  const std::filesystem::path configs = std::filesystem::path(TRACKCOSIM_SOURCE_DIR) / "configs";
  for (const auto& [file, grains] : {std::pair{"cosim_m113_gravel_terrain.json", 104'544u},
                                     std::pair{"cosim_excavator_gravel_terrain.json", 121'968u}}) {
    const TerrainScene scene = read_terrain_scene(io::load_json_document(configs / file), file);
    std::uint64_t count = 0;
    for (const GidRange& r : plan_gid_ranges(scene)) count += r.count;
    EXPECT_EQ(count, grains + 6u) << file;  // the grains, 5 walls and the box between the strips
    EXPECT_EQ(scene.step.solver.rolling_friction, 0.5) << file;
    EXPECT_TRUE(scene.cosim.moving_patch.has_value()) << file;
  }
}

// --- errors: each names the file and the key path ---

TEST(TerrainConfigErrors, UnknownKeysAtEveryLevel) {
  EXPECT_TRUE(starts_with(config_error(R"({"end_time": 1, "step": 0.001})"),
                          "terrain.json: step: unknown key (expected one of: container,"));
  EXPECT_TRUE(starts_with(config_error(R"({"end_time": 1, "solver": {"iterations": 5}})"),
                          "terrain.json: solver.iterations: unknown key"));
  EXPECT_TRUE(starts_with(config_error(R"({"end_time": 1, "particles": [{"kind": "lattice", "min": [0, 0, 0],
    "max": [1, 1, 1], "spacing": 0.1, "radius": 0.01, "jiter": 0.1}]})"),
                          "terrain.json: particles[0].jiter: unknown key"));
  EXPECT_TRUE(starts_with(config_error(R"({"end_time": 1, "output": {"probe": [1]}})"),
                          "terrain.json: output.probe: unknown key"));
}

TEST(TerrainConfigErrors, WrongTypesAndMissingKeys) {
  EXPECT_EQ(config_error(R"({"end_time": "1"})"), "terrain.json: end_time: expected a number, got string");
  EXPECT_EQ(config_error(R"({})"), "terrain.json: end_time: required key is missing");
  EXPECT_EQ(config_error(R"({"end_time": 1, "output": {"stats": 1}})"),
            "terrain.json: output.stats: expected true or false, got the integer 1");
  EXPECT_EQ(config_error(R"({"end_time": 1, "solver": {"method": "gauss"}})"),
            "terrain.json: solver.method: expected one of \"jacobi\", \"apgd\", got \"gauss\"");
  EXPECT_EQ(config_error(R"({"end_time": 1, "particles": [{"kind": "cubes"}]})"),
            "terrain.json: particles[0].kind: expected one of \"lattice\", \"layers\", \"spheres\", \"compounds\", "
            "\"heightmap\", \"elevation_grid\", \"random_fill\", \"rocks\", got \"cubes\"");
  EXPECT_EQ(config_error(R"({"end_time": 1, "particles": [{"spheres": []}]})"),
            "terrain.json: particles[0].kind: required key is missing");
  EXPECT_EQ(config_error(R"({"end_time": 1, "gravity": [0, -9.81]})"),
            "terrain.json: gravity: expected an array of 3 numbers, got an array of 2 elements");
}

TEST(TerrainConfigErrors, ImpossibleValues) {
  EXPECT_EQ(config_error(R"({"end_time": 1, "step_size": 0})"), "terrain.json: step_size: must be > 0, got 0");
  EXPECT_EQ(config_error(R"({"end_time": -1})"), "terrain.json: end_time: must be >= 0, got -1");
  // Step counts past 2^64 used to wrap to a run of 0 steps that exited as a success.
  EXPECT_EQ(config_error(R"({"end_time": 1e300})"),
            "terrain.json: end_time: end_time 1e+300 s at step_size 0.001 s asks for 1e+303 steps; at most 1e+12 "
            "can run (a longer step_size or a shorter end_time)");
  EXPECT_TRUE(starts_with(config_error(R"({"end_time": 1, "step_size": 1e-300})"),
                          "terrain.json: end_time: end_time 1 s at step_size 1e-300 s asks for 1e+300 steps"));
  EXPECT_EQ(config_error(R"({"end_time": 1, "material": {"friction": -0.1}})"),
            "terrain.json: material.friction: must be >= 0, got -0.1");
  EXPECT_EQ(config_error(R"({"end_time": 1, "material": {"density": 0}})"),
            "terrain.json: material.density: must be > 0, got 0");
  EXPECT_EQ(config_error(std::string(R"({"end_time": 1, "container": {"min": [0, 0, 0], "max": [1, 1, 1],
    "wall_friction": -1}})")),
            "terrain.json: container.wall_friction: must be >= 0, got -1");
  EXPECT_EQ(config_error(R"({"end_time": 1, "container": {"min": [0, 0, 0], "max": [1, 0, 1]}})"),
            "terrain.json: container.max: must be > min along y, got 0 <= 0");
  EXPECT_EQ(config_error(R"({"end_time": 1, "particles": [{"kind": "spheres",
    "spheres": [{"position": [0, 0, 1], "radius": -0.01}]}]})"),
            "terrain.json: particles[0].spheres[0].radius: must be > 0, got -0.01");
  EXPECT_EQ(config_error(R"({"end_time": 1, "particles": [{"kind": "spheres", "material": {"friction": -2},
    "spheres": []}]})"),
            "terrain.json: particles[0].material.friction: must be >= 0, got -2");
  EXPECT_EQ(config_error(R"({"end_time": 1, "solver": {"omega": 1.5}})"),
            "terrain.json: solver.omega: must be in (0, 1], got 1.5");
  EXPECT_EQ(config_error(R"({"end_time": 1, "solver": {"max_iterations": 0}})"),
            "terrain.json: solver.max_iterations: must be >= 1, got 0");
  EXPECT_EQ(config_error(R"({"end_time": 1, "solver": {"residual_interval": 0}})"),
            "terrain.json: solver.residual_interval: must be >= 1, got 0");
  EXPECT_EQ(config_error(R"({"end_time": 1, "solver": {"rolling_friction": -0.1}})"),
            "terrain.json: solver.rolling_friction: must be >= 0, got -0.1");
  EXPECT_EQ(config_error(R"({"end_time": 1, "solver": {"contact_damping": 10}})"),
            "terrain.json: solver: contact_damping needs a contact_stiffness > 0 (a rigid contact has no damper)");
  EXPECT_EQ(config_error(R"({"end_time": 1, "solver": {"method": "jacobi", "preconditioned": true}})"),
            "terrain.json: solver.preconditioned: is an APGD setting: the Jacobi sweep already scales each row by its own eta");
  EXPECT_EQ(config_error(R"({"end_time": 1, "output": {"probe_interval": 0}})"),
            "terrain.json: output.probe_interval: must be >= 1 (steps), got 0");
  EXPECT_EQ(config_error(R"({"end_time": 1, "collision": {"envelope": -0.001}})"),
            "terrain.json: collision.envelope: must be >= 0, got -0.001");
}

TEST(TerrainConfigErrors, BadGenerators) {
  const std::string lattice = R"({"end_time": 1, "particles": [{"kind": "lattice", "min": [0, 0, 0], )";
  EXPECT_TRUE(starts_with(
      config_error(lattice + R"("max": [1, 1, 1], "spacing": 0.02, "radius": 0.01, "jitter": 0.1}]})"),
      "terrain.json: particles[0].spacing: neighbouring spheres may overlap: spacing x (1 - 2 jitter) = 0.01"));
  EXPECT_TRUE(starts_with(config_error(lattice + R"("max": [1, 0.01, 1], "spacing": 0.05, "radius": 0.01}]})"),
                          "terrain.json: particles[0].max: the box [min, max] holds no whole lattice cell along y"));
  EXPECT_EQ(config_error(lattice + R"("max": [1, 1, 1], "spacing": 0.05, "radius": [0.02, 0.01]}]})"),
            "terrain.json: particles[0].radius: min must be <= max, got [0.02, 0.01]");
  EXPECT_EQ(config_error(R"({"end_time": 1, "particles": [
    {"kind": "lattice", "min": [0, 0, 0], "max": [1, 1, 1], "spacing": 0.1, "radius": 0.01},
    {"kind": "layers", "min": [0, 0], "max": [1, 1], "bottom": 0.5, "layers": 2, "radius": 0.01}]})"),
            "terrain.json: particles[1]: its box overlaps the box of particles[0], so their spheres would overlap");
  EXPECT_EQ(config_error(R"({"end_time": 1, "particles": [{"kind": "layers", "min": [0, 0], "max": [1, 1],
    "bottom": 0, "layers": 0, "radius": 0.01}]})"),
            "terrain.json: particles[0].layers: must be >= 1, got 0");
  EXPECT_EQ(config_error(R"({"end_time": 1, "particles": [{"kind": "compounds", "bodies": [{"position": [0, 0, 0],
    "mass": 1, "inertia": [1, 1, 1], "spheres": []}]}]})"),
            "terrain.json: particles[0].bodies[0].spheres: a compound needs at least one sphere");
  EXPECT_EQ(config_error(R"({"end_time": 1, "particles": [{"kind": "compounds", "bodies": [{"position": [0, 0, 0],
    "mass": 1, "inertia": [1, 0, 1], "spheres": [{"offset": [0, 0, 0], "radius": 1}]}]}]})"),
            "terrain.json: particles[0].bodies[0].inertia: must all be > 0, got [1, 0, 1]");
}

TEST(TerrainConfigErrors, ParticlesOutsideTheContainer) {
  const std::string box = std::string("{") + kBox + R"(, "end_time": 1, "particles": [)";
  EXPECT_EQ(config_error(box + R"({"kind": "spheres", "spheres": [{"position": [0.1, 0.05, 0.005], "radius": 0.01}]}]})"),
            "terrain.json: particles[0].spheres[0].position: the sphere reaches outside the container along z: "
            "-0.005 < container.min 0");
  EXPECT_EQ(config_error(box + R"({"kind": "lattice", "min": [0, 0, 0], "max": [0.3, 0.1, 0.1],
    "spacing": 0.025, "radius": 0.01}]})"),
            "terrain.json: particles[0].max: the box [min, max] reaches outside the container along x: "
            "0.3 > container.max 0.2");
  // The top is open: a bed higher than the walls is fine.
  EXPECT_NO_THROW(parse(box + R"({"kind": "lattice", "min": [0, 0, 0], "max": [0.2, 0.1, 1],
    "spacing": 0.025, "radius": 0.01}]})"));
}

TEST(TerrainConfigErrors, ProbeThatNoBodyHas) {
  EXPECT_EQ(config_error(std::string("{") + kBox + R"(, "end_time": 1, "output": {"probes": [4, 5]}})"),
            "terrain.json: output.probes[1]: no body has gid 5 (this scene has gids 0 to 4)");
  EXPECT_EQ(config_error(R"({"end_time": 1, "output": {"probes": [0]}})"),
            "terrain.json: output.probes[0]: no body has gid 0 (this scene has no bodies)");
  EXPECT_EQ(config_error(R"({"end_time": 1, "output": {"probes": [-1]}})"),
            "terrain.json: output.probes[0]: must be >= 0, got -1");
}

TEST(TerrainConfigErrors, FileErrorsNameTheFile) {
  const std::filesystem::path missing = std::filesystem::temp_directory_path() / "trackcosim_no_such_config.json";
  try {
    load_terrain_config(missing);
    ADD_FAILURE() << "no io::ConfigError";
  } catch (const io::ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), missing.string() + ": cannot open the file for reading");
  }
}

}  // namespace
}  // namespace trackcosim::terrain

namespace trackcosim::terrain {
namespace {

TEST(TerrainConfigDomain, KeysMapOntoTheSettingsAndDefaultsAreAutoBalanced) {
  const TerrainConfig defaults = parse(R"({"end_time": 1})");
  EXPECT_EQ(defaults.scene.domain.layout, "auto");
  EXPECT_TRUE(defaults.scene.domain.balance);
  EXPECT_EQ(defaults.scene.domain.rebalance_interval, 0u);
  EXPECT_EQ(defaults.scene.domain.max_displacement, 0);
  EXPECT_EQ(defaults.scene.output.checkpoint_interval, 0u);
  const TerrainConfig c = parse(R"({"end_time": 1, "output": {"checkpoint_interval": 500},
    "domain": {"layout": "grid:2x2x1", "balance": false, "rebalance_interval": 50, "max_displacement": 0.004}})");
  EXPECT_EQ(c.scene.domain.layout, "grid:2x2x1");
  EXPECT_FALSE(c.scene.domain.balance);
  EXPECT_EQ(c.scene.domain.rebalance_interval, 50u);
  EXPECT_EQ(c.scene.domain.max_displacement, 0.004);
  EXPECT_EQ(c.scene.output.checkpoint_interval, 500u);
  // run.json's resolved config carries the section and loads back to the same settings.
  const TerrainConfig again = parse(resolved_config_json(c.scene).dump());
  EXPECT_EQ(again.scene.domain.layout, "grid:2x2x1");
  EXPECT_EQ(again.scene.domain.rebalance_interval, 50u);
}

TEST(TerrainConfigDomain, BadLayoutsAndValuesNameTheKey) {
  EXPECT_EQ(config_error(R"({"end_time": 1, "domain": {"layout": "grid:2x2"}})"),
            "terrain.json: domain.layout: layout \"grid:2x2\" is not one of: auto, slab:x, slab:y, slab:z, "
            "grid:PXxPYxPZ (e.g. grid:2x2x1)");
  EXPECT_TRUE(starts_with(config_error(R"({"end_time": 1, "domain": {"cuts": 3}})"),
                          "terrain.json: domain.cuts: unknown key"));
  EXPECT_EQ(config_error(R"({"end_time": 1, "domain": {"max_displacement": -1}})"),
            "terrain.json: domain.max_displacement: must be >= 0, got -1");
}

}  // namespace
}  // namespace trackcosim::terrain

// --- the settle section and the settled-bed measurements (docs/terrain-config.md, "settle") ---

namespace trackcosim::terrain {
namespace {

TEST(TerrainConfigSettle, DefaultsCapAndRoundTrip) {
  const TerrainConfig plain = parse_terrain_config(R"({"end_time": 0.5})", "terrain.json");
  EXPECT_FALSE(plain.scene.settle.enabled);
  EXPECT_FALSE(resolved_config_json(plain.scene).contains("settle"));
  EXPECT_EQ(plain.scene.output.heightmap_spacing, 0.0);
  EXPECT_EQ(plain.scene.output.packing_margin, 2.0);

  const TerrainConfig c = parse_terrain_config(
      R"({"end_time": 0.5, "settle": {"rms_speed": 0.01, "max_time": 2, "min_time": 0.1},
          "output": {"heightmap_spacing": 0.02, "packing_margin": 3, "contact_gap": 1e-4}})",
      "terrain.json");
  EXPECT_TRUE(c.scene.settle.enabled);
  EXPECT_EQ(c.scene.settle.rms_speed, 0.01);
  EXPECT_EQ(c.scene.settle.check_interval, 10u);
  EXPECT_EQ(c.step_count(), 2000u);  // the time cap replaces end_time
  EXPECT_EQ(parse_terrain_config(R"({"end_time": 0.5, "settle": {"rms_speed": 0.01}})", "t.json").step_count(), 500u);
  const TerrainConfig again = parse_terrain_config(resolved_config_json(c.scene).dump(), "again.json");
  EXPECT_EQ(resolved_config_json(again.scene).dump(), resolved_config_json(c.scene).dump());
  EXPECT_EQ(again.scene.output.contact_gap, 1e-4);
}

TEST(TerrainConfigSettle, ErrorsNameTheKey) {
  auto error = [](const std::string& text) {
    try {
      parse_terrain_config(text, "terrain.json");
    } catch (const io::ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error(R"({"end_time": 1, "settle": {}})"), "terrain.json: settle.rms_speed: required key is missing");
  EXPECT_EQ(error(R"({"end_time": 1, "settle": {"rms_speed": 0.01, "check_interval": 0}})"),
            "terrain.json: settle.check_interval: must be >= 1 (steps), got 0");
  EXPECT_EQ(error(R"({"end_time": 1, "settle": {"rms_speed": 0}})").rfind("terrain.json: settle.rms_speed: ", 0), 0u);
  EXPECT_EQ(error(R"({"end_time": 1, "settle": {"rms_speed": 0.1, "speed": 1}})")
                .rfind("terrain.json: settle.speed: unknown key", 0),
            0u);
}

TEST(TerrainConfigSettle, ShippedSettleConfigLoads) {
  const TerrainConfig c =
      load_terrain_config(std::filesystem::path(TRACKCOSIM_SOURCE_DIR) / "configs" / "settle_robot_terrain.json");
  EXPECT_TRUE(c.scene.settle.enabled);
  EXPECT_EQ(c.bodies.size(), 9941u);  // 9,936 spheres (12 layers of 36 x 23) and 5 walls
}

}  // namespace
}  // namespace trackcosim::terrain

namespace trackcosim::terrain {
namespace {

// cosim.moving_patch (docs/moving-patch.md): the shipped example, the round trip through
// run.json's resolved config, and each bad value named by its key.
TEST(TerrainConfig, MovingPatchLoadsRoundTripsAndNamesBadKeys) {
  const std::filesystem::path file =
      std::filesystem::path(TRACKCOSIM_SOURCE_DIR) / "configs" / "cosim_robot_patch_terrain.json";
  const TerrainScene scene = read_terrain_scene(io::load_json_document(file), file.string());
  ASSERT_TRUE(scene.cosim.moving_patch.has_value());
  EXPECT_EQ(scene.cosim.moving_patch->ahead, 0.4);
  EXPECT_EQ(scene.cosim.moving_patch->behind, 0.2);
  EXPECT_EQ(scene.cosim.moving_patch->width, 0.0);
  const nlohmann::ordered_json resolved = resolved_config_json(scene);
  EXPECT_EQ(resolved["cosim"]["moving_patch"]["ahead"], 0.4);
  const TerrainScene again = read_terrain_scene(nlohmann::json::parse(resolved.dump()), "resolved");
  ASSERT_TRUE(again.cosim.moving_patch.has_value());
  EXPECT_EQ(again.cosim.moving_patch->behind, 0.2);
  EXPECT_FALSE(read_terrain_scene(nlohmann::json::parse(R"({"end_time": 1})"), "t").cosim.moving_patch.has_value());

  auto error = [](const std::string& patch) {
    try {
      read_terrain_scene(nlohmann::json::parse(R"({"end_time": 1, "cosim": {"moving_patch": )" + patch + "}}"),
                         "terrain.json");
    } catch (const io::ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error(R"({"behind": 1})"), "terrain.json: cosim.moving_patch.ahead: required key is missing");
  EXPECT_EQ(error(R"({"ahead": 0, "behind": 0})"),
            "terrain.json: cosim.moving_patch: ahead + behind must be > 0 (the box's length beyond the shoes), got 0");
  EXPECT_EQ(error(R"({"ahead": 1, "behind": -1})"),
            "terrain.json: cosim.moving_patch.behind: must be >= 0, got -1");
  EXPECT_EQ(error(R"({"ahead": 1, "behind": 1, "length": 2})").rfind("terrain.json: cosim.moving_patch.length: unknown key", 0), 0u);
  EXPECT_EQ(error(R"({"ahead": 1, "behind": 1, "width": 1, "track_width": 0.5})"),
            "terrain.json: cosim.moving_patch.track_width: cannot be given with width (one band around all shoes, "
            "or one per track): give one of them");

  // track_width reads and round-trips through run.json's resolved config.
  const TerrainScene tracks = read_terrain_scene(
      nlohmann::json::parse(R"({"end_time": 1, "cosim": {"moving_patch": {"ahead": 1, "behind": 1, "track_width": 0.5}}})"),
      "t");
  EXPECT_EQ(tracks.cosim.moving_patch->track_width, 0.5);
  const TerrainScene tracks_again =
      read_terrain_scene(nlohmann::json::parse(resolved_config_json(tracks).dump()), "resolved");
  EXPECT_EQ(tracks_again.cosim.moving_patch->track_width, 0.5);
}

}  // namespace
}  // namespace trackcosim::terrain
