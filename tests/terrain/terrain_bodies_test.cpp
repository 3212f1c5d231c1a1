// A terrain config's `bodies` (docs/terrain-config.md, "bodies"): the three shape sources, the
// principal frame, gids after the obstacles, the resolved config, errors that name their key, a
// mesh body dropped on the floor against the height the mesh predicts, and a standalone run that
// follows an axial body's load schedule.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/dynamics/rigid_body_system.h"
#include "geometry/mesh_file.h"
#include "geometry/sphere_decomposition.h"
#include "geometry/sphere_fit_report.h"
#include "terrain_node/config/terrain_config.h"
#include "terrain_node/standalone/settle_command.h"
#include "tests/support/config_errors.h"
#include "tests/support/text_files.h"

namespace trackcosim::terrain {
namespace {

namespace fs = std::filesystem;

/// A closed box mesh of the given sides centred on the origin, faces counter-clockwise from outside.
geometry::TriangleMesh box_mesh(Vec3 side) {
  geometry::TriangleMesh m;
  for (int k = 0; k < 8; ++k)
    m.vertices.push_back({(k & 1 ? 0.5 : -0.5) * side.x, (k & 2 ? 0.5 : -0.5) * side.y, (k & 4 ? 0.5 : -0.5) * side.z});
  // Two triangles per face; corners numbered by bits (x, y, z).
  const std::uint32_t faces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (const auto& f : faces) {
    m.triangles.push_back({f[0], f[1], f[2]});
    m.triangles.push_back({f[0], f[2], f[3]});
  }
  return m;
}

class TerrainBodies : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("trackcosim_terrain_bodies_test_" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_);
    geometry::write_obj(root_ / "box.obj", box_mesh(kSide));
  }
  void TearDown() override { fs::remove_all(root_); }
  TerrainConfig parse(const std::string& text) const {
    return parse_terrain_config(text, (root_ / "scene.json").string());
  }
  std::string error(const std::string& text) const {
    return test::config_error_message([&](const std::string& t) { parse(t); }, text);
  }
  void write(const std::string& name, const std::string& text) const { std::ofstream(root_ / name) << text; }
  /// A one-thread standalone run of root_/CONFIG into root_/OUT; `from` (a folder of root_): on its
  /// checkpoint.bin's bed (--from-checkpoint).
  SettleOptions run_options(const std::string& config, const std::string& out, const std::string& from = "") const {
    SettleOptions o;
    o.config = root_ / config;
    o.out_dir = root_ / out;
    o.threads = 1;
    if (!from.empty()) o.from_checkpoint = root_ / from / "checkpoint.bin";
    return o;
  }

  static constexpr Vec3 kSide{0.3, 0.2, 0.1};
  fs::path root_;
};

/// A config with a 1 m box container and the given `bodies` list.
std::string scene_with(const std::string& bodies, const std::string& extra = "") {
  return R"({"container": {"min": [0, 0, 0], "max": [1, 1, 1]},
             "obstacles": [{"kind": "box", "center": [0.9, 0.9, 0.05], "size": [0.1, 0.1, 0.1]}],
             "end_time": 0.01, )" +
         extra + R"("bodies": )" + bodies + "}";
}

TEST_F(TerrainBodies, GidsFollowTheObstaclesAndTheRangesNameEachBody) {
  const TerrainConfig c = parse(scene_with(R"([
      {"name": "anchor", "shape": {"spheres": [[0, 0, 0, 0.05]], "mass": 2, "inertia": [0.1, 0.1, 0.1]},
       "position": [0.5, 0.5, 0.5], "motion": "axial"},
      {"shape": {"spheres": [[0, 0, 0, 0.05], [0.1, 0, 0, 0.05]], "mass": 2, "inertia": [0.1, 0.2, 0.2]},
       "position": [0.2, 0.2, 0.2], "motion": "fixed"}])"));
  // 5 walls (open top), 1 obstacle, then the bodies.
  ASSERT_EQ(c.gid_ranges.size(), 8u);
  EXPECT_EQ(c.gid_ranges[6].what, "bodies[0] (anchor, axial)");
  EXPECT_EQ(c.gid_ranges[6].first, 6u);
  EXPECT_EQ(c.gid_ranges[7].what, "bodies[1] (fixed)");
  EXPECT_EQ(c.body_gids, (std::vector<gpu::GlobalId>{6, 7}));
  ASSERT_EQ(c.bodies.size(), 8u);
  EXPECT_EQ(c.bodies.motion[6], gpu::Motion::Axial);
  EXPECT_EQ(c.bodies.motion[7], gpu::Motion::Fixed);
  EXPECT_EQ(sphere_count(c.scene), 3u);
  // A fixed body is built with the walls, a moving one only where its centre is.
  const TerrainConfig fixed_only = parse_terrain_config(scene_with(R"([
      {"shape": {"spheres": [[0, 0, 0, 0.05]], "mass": 2, "inertia": [0.1, 0.1, 0.1]}, "position": [0.5, 0.5, 0.5]},
      {"shape": {"spheres": [[0, 0, 0, 0.05]], "mass": 2, "inertia": [0.1, 0.1, 0.1]}, "position": [0.2, 0.2, 0.2],
       "motion": "fixed"}])"),
                                                        (root_ / "scene.json").string(), BuildBodies::FixedOnly);
  EXPECT_EQ(fixed_only.bodies.gid.back(), 7u);
  EXPECT_EQ(fixed_only.bodies.size(), 7u);
}

// mesh_spheres' output is in the mesh's axes; the body frame is the principal frame. With the
// axes turned 90 degrees about z (a1 = y, a2 = -x, a3 = z), a sphere at (0.1, 0, 0) of the mesh
// is at (0, -0.1, 0) in the body frame, and the body's orientation brings it back to (0.1, 0, 0)
// in the world (to rounding, 1e-15). A `mass` of twice the file's doubles every moment.
TEST_F(TerrainBodies, ASpheresFileIsTurnedIntoItsPrincipalFrame) {
  write("part.json", R"({"mass": 4, "volume": 0.002, "centre_of_mass": [1, 2, 3],
      "inertia": [[0.3, 0, 0], [0, 0.1, 0], [0, 0, 0.5]], "principal_moments": [0.1, 0.3, 0.5],
      "principal_axes": [[0, 1, 0], [-1, 0, 0], [0, 0, 1]], "spheres": [[0.1, 0, 0, 0.02], [0, 0, 0.05, 0.03]]})");
  const TerrainConfig c = parse(scene_with(R"([{"shape": {"spheres_file": "part.json"}, "mass": 8,
      "position": [0.5, 0.5, 0.5], "orientation": [1, 0, 0, 0]}])"));
  const gpu::BodySet& b = c.bodies;
  const std::size_t i = b.size() - 1;
  EXPECT_EQ(b.mass[i], 8);
  EXPECT_NEAR(b.ix[i], 0.2, 1e-15);
  EXPECT_NEAR(b.iy[i], 0.6, 1e-15);
  EXPECT_NEAR(b.iz[i], 1.0, 1e-15);
  ASSERT_EQ(b.sphere_radius.size(), 2u);
  EXPECT_NEAR(b.sphere_ox[0], 0, 1e-15);
  EXPECT_NEAR(b.sphere_oy[0], -0.1, 1e-15);
  const Quat q{b.qw[i], b.qx[i], b.qy[i], b.qz[i]};
  const Vec3 world = rotate(q, {b.sphere_ox[0], b.sphere_oy[0], b.sphere_oz[0]});
  EXPECT_NEAR(world.x, 0.1, 1e-15);
  EXPECT_NEAR(world.y, 0, 1e-15);
  EXPECT_NEAR(world.z, 0, 1e-15);
}

// run.json's "config" loads again to the same bodies, bit for bit (terrain_config.h).
TEST_F(TerrainBodies, TheResolvedConfigLoadsToTheSameBodies) {
  const TerrainConfig c = parse(scene_with(R"([
      {"name": "rock", "shape": {"mesh": "box.obj", "density": 2600, "refine_levels": 1},
       "position": [0.5, 0.5, 0.3], "orientation": [0, 0, 0, 1], "velocity": [0, 0, -1],
       "loads": [{"from": 0, "force": [0, 0, -5]}, {"from": 0.5, "torque": [0, 0, 2]}], "motion": "axial"},
      {"shape": {"spheres": [[0, 0.1, 0, 0.05]], "mass": 1, "inertia": [0.1, 0.1, 0.1]}, "position": [0.2, 0.2, 0.2],
       "motion": "fixed", "friction": 0.9}])"));
  const std::string text = resolved_config_json(c.scene).dump();
  const TerrainConfig again = parse_terrain_config(text, "/elsewhere/run.json");
  const gpu::BodySet &a = c.bodies, &b = again.bodies;
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(a.gid, b.gid);
  EXPECT_EQ(a.motion, b.motion);
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a.mass[i], b.mass[i]);
    EXPECT_EQ(a.iz[i], b.iz[i]);
    EXPECT_EQ(a.qz[i], b.qz[i]);
    EXPECT_EQ(a.fz[i], b.fz[i]);
    EXPECT_EQ(a.friction[i], b.friction[i]);
  }
  EXPECT_EQ(a.sphere_ox, b.sphere_ox);
  EXPECT_EQ(a.sphere_radius, b.sphere_radius);
  ASSERT_EQ(again.scene.bodies.size(), 2u);
  EXPECT_EQ(again.scene.bodies[0].loads.size(), 2u);
  EXPECT_EQ(again.scene.bodies[0].load_at(0.7).torque.z, 2);
}

// Every error names the key path under bodies[i].
TEST_F(TerrainBodies, ErrorsNameTheirKey) {
  const std::string file = (root_ / "scene.json").string() + ": ";
  const std::string sphere = R"({"spheres": [[0, 0, 0, 0.05]], "mass": 2, "inertia": [0.1, 0.1, 0.1]})";
  auto body = [&](const std::string& members, const std::string& shape = "") {
    return scene_with("[{\"shape\": " + (shape.empty() ? sphere : shape) + ", " + members + "}]");
  };
  EXPECT_TRUE(test::starts_with(error(body(R"("position": [0.5, 0.5, 0.5], "colour": 1)")),
                                file + "bodies[0].colour: unknown key"));
  EXPECT_TRUE(test::starts_with(error(body(R"("motion": "free")")), file + "bodies[0].position: required key is missing"));
  EXPECT_TRUE(test::starts_with(error(body(R"("position": [1.5, 0.5, 0.5])")),
                                file + "bodies[0].position: the centre of mass reaches outside the container along x"));
  EXPECT_TRUE(test::starts_with(error(body(R"("position": [0.5, 0.5, 0.5], "motion": "glued")")),
                                file + "bodies[0].motion: "));
  EXPECT_TRUE(test::starts_with(
      error(body(R"("position": [0.5, 0.5, 0.5], "loads": [{"from": 1}, {"from": 0.5}])")),
      file + "bodies[0].loads[1].from: must be later than the previous load's 1 s"));
  EXPECT_TRUE(test::starts_with(error(body(R"("position": [0.5, 0.5, 0.5], "motion": "axial", "velocity": [1, 0, 0])")),
                                file + "bodies[0].velocity: an axial body moves along z only"));
  EXPECT_TRUE(test::starts_with(
      error(body(R"("position": [0.5, 0.5, 0.5], "motion": "fixed", "loads": [{"from": 0}])")),
      file + "bodies[0].loads: a fixed body takes no loads"));
  EXPECT_TRUE(test::starts_with(error(body(R"("position": [0.5, 0.5, 0.5], "mass": -1)")), file + "bodies[0].mass: "));
  EXPECT_TRUE(test::starts_with(
      error(body(R"("position": [0.5, 0.5, 0.5])", R"({"spheres": [[0, 0, 0, -1]], "mass": 1, "inertia": [1, 1, 1]})")),
      file + "bodies[0].shape.spheres[0][3]: "));
  EXPECT_TRUE(test::starts_with(
      error(body(R"("position": [0.5, 0.5, 0.5])", R"({"spheres": [[0, 0, 0, 1]], "mass": 1, "inertia": [1, 0, 1]})")),
      file + "bodies[0].shape.inertia: must all be > 0"));
  EXPECT_TRUE(test::starts_with(
      error(body(R"("position": [0.5, 0.5, 0.5])", R"({"mesh": "box.obj", "density": 1000, "spheres_file": "x.json"})")),
      file + "bodies[0].shape: needs exactly one of"));
  EXPECT_TRUE(test::starts_with(
      error(body(R"("position": [0.5, 0.5, 0.5])", R"({"mesh": "box.obj", "density": 1000, "f": 1.5})")),
      file + "bodies[0].shape.f: must be in [0, 1)"));
  EXPECT_TRUE(test::starts_with(error(body(R"("position": [0.5, 0.5, 0.5])", R"({"mesh": "box.obj"})")),
                                file + "bodies[0].shape.density: required key is missing"));
  // The geometry/ messages, prefixed by the key path: a missing file, an open mesh.
  const std::string missing = error(body(R"("position": [0.5, 0.5, 0.5])", R"({"mesh": "none.obj", "density": 1000})"));
  EXPECT_TRUE(test::starts_with(missing, file + "bodies[0].shape.mesh: ")) << missing;
  EXPECT_NE(missing.find("none.obj"), std::string::npos) << missing;
  geometry::TriangleMesh open = box_mesh({0.1, 0.1, 0.1});
  open.triangles.pop_back();
  geometry::write_obj(root_ / "open.obj", open);
  const std::string open_error = error(body(R"("position": [0.5, 0.5, 0.5])", R"({"mesh": "open.obj", "density": 1000})"));
  EXPECT_TRUE(test::starts_with(open_error, file + "bodies[0].shape.mesh: ")) << open_error;
  EXPECT_NE(open_error.find("open mesh"), std::string::npos) << open_error;
  write("bad.json", R"({"mass": 1, "principal_moments": [1, 1, 1], "principal_axes": [[1, 0, 0], [0, 1, 0], [0, 0, -1]],
                        "spheres": [[0, 0, 0, 0.1]]})");
  const std::string axes = error(body(R"("position": [0.5, 0.5, 0.5])", R"({"spheres_file": "bad.json"})"));
  EXPECT_TRUE(test::starts_with(axes, file + "bodies[0].shape.spheres_file: " + (root_ / "bad.json").string() +
                                          ": principal_axes: the axes must form a right-handed set"))
      << axes;
}

/// The lowest point of the body's spheres below its centre of mass, in the world frame.
real depth_below_centre(const gpu::BodySet& b, std::size_t i) {
  const Quat q{b.qw[i], b.qx[i], b.qy[i], b.qz[i]};
  real lowest = 0;
  for (std::size_t k = 0; k < b.sphere_radius.size(); ++k)
    if (b.sphere_body[k] == i)
      lowest = std::min(lowest, rotate(q, {b.sphere_ox[k], b.sphere_oy[k], b.sphere_oz[k]}).z - b.sphere_radius[k]);
  return -lowest;
}

// A free 0.3 x 0.2 x 0.1 m box from box.obj (1000 kg/m^3: 6 kg), dropped flat from 0.25 m onto
// the floor, comes to rest with its centre of mass where its sphere set's lowest point touches
// the floor (within 2e-4 m: the solver's residual penetration and the envelope), which is the
// height the mesh predicts, half the box's height 0.05 m, raised by at most the fit's protrusion
// (the spheres bulge past the faces; geometry/sphere_fit_report.h measures by how much). The measured
// protrusion is a sampled lower bound (64 points per sphere cap: the lowest point of a cap may
// fall between samples, 1 - cos of half the sample spacing, about 5% of the bulge), hence the
// margin of 1.25.
TEST_F(TerrainBodies, AMeshBodyDroppedOnTheFloorRestsAtTheHeightTheMeshPredicts) {
  const TerrainConfig c = parse(scene_with(R"([{"shape": {"mesh": "box.obj", "density": 1000, "refine_levels": 2},
      "position": [0.5, 0.5, 0.25]}])",
                                           R"("step_size": 1e-3, "solver": {"max_iterations": 150},
                                              "collision": {"envelope": 0.002}, )"));
  const gpu::BodySet& b = c.bodies;
  const std::size_t i = b.size() - 1;
  EXPECT_NEAR(b.mass[i], 6, 1e-12);
  const real sphere_rest = depth_below_centre(b, i);
  // The fit, measured in the mesh's frame as mesh_spheres does.
  geometry::TriangleMesh mesh = geometry::read_mesh_file(root_ / "box.obj");
  std::vector<geometry::Sphere> spheres;
  const Quat principal = c.scene.bodies[0].shape.principal;
  for (const CompoundBody::Member& m : c.scene.bodies[0].shape.spheres) spheres.push_back({rotate(principal, m.offset), m.radius});
  const geometry::FitReport fit = geometry::measure_fit(mesh, spheres, {0, 0, 0});
  const real protrusion = fit.protrusion * fit.part_size;
  EXPECT_GE(sphere_rest, kSide.z / 2);  // the spheres cover the bottom face
  EXPECT_LE(sphere_rest, kSide.z / 2 + 1.25 * protrusion);

  gpu::RigidBodySystem system(b, c.scene.step);
  for (int k = 0; k < 600; ++k) system.step();
  const gpu::BodyState s = system.body_state(static_cast<std::uint32_t>(i));
  EXPECT_NEAR(s.position.z, sphere_rest, 2e-4);
  EXPECT_LT(length(s.velocity), 1e-3);
  EXPECT_NEAR(s.position.x, 0.5, 1e-4);
  EXPECT_NEAR(s.position.y, 0.5, 1e-4);
}

std::vector<double> csv_numbers(const std::string& line) {
  std::vector<double> out;
  std::size_t start = 0;
  while (start <= line.size()) {
    const std::size_t end = std::min(line.find(',', start), line.size());
    double v = 0;
    std::from_chars(line.data() + start, line.data() + end, v);
    out.push_back(v);
    start = end + 1;
  }
  return out;
}

// terrain_node --config in-process: an axial body (1 kg, I_zz = 0.01 kg m^2, upright) in a
// container without gravity, pushed up by 2 N (and sideways by 5 N, which the axis drops) until
// t = 0.05 s, then turned by 0.1 N m. Semi-implicit Euler with h = 1e-3 s, the load of a step
// chosen at its middle:
//   t <= 0.05: vz = 2 t, z = z0 + 2 h^2 n (n + 1) / 2;  after: vz = 0.1 m/s constant,
//   wz = 10 (t - 0.05) rad/s. x, y, vx, vy, wx, wy stay exactly as they were.
// probes.csv holds the shortest text that reads back to the same bits; tolerance 1e-12.
TEST_F(TerrainBodies, AStandaloneRunFollowsTheLoadSchedule) {
  write("run.json", scene_with(R"([{"shape": {"spheres": [[0, 0, 0, 0.05]], "mass": 1, "inertia": [0.01, 0.01, 0.01]},
      "position": [0.5, 0.4, 0.3], "motion": "axial",
      "loads": [{"from": 0, "force": [5, 0, 2]}, {"from": 0.05, "torque": [3, 0, 0.1]}]}])",
                               R"("gravity": [0, 0, 0], "step_size": 1e-3,
                                  "output": {"probes": [6], "probe_interval": 10, "progress_interval": 0, "stats": false},)"));
  // end_time 0.01 in scene_with: this run needs 0.1 s.
  std::string text = test::read_file(root_ / "run.json");
  text.replace(text.find("\"end_time\": 0.01"), 16, "\"end_time\": 0.1");
  write("run.json", text);
  std::ostringstream captured;
  auto* old = std::cout.rdbuf(captured.rdbuf());
  SettleOptions options;
  options.config = root_ / "run.json";
  options.out_dir = root_ / "out";
  options.threads = 1;
  run_settle_command(options);
  std::cout.rdbuf(old);
  const std::vector<std::string> lines = test::read_lines(root_ / "out" / "probes.csv");
  ASSERT_GE(lines.size(), 11u);
  const double h = 1e-3;
  for (std::size_t row = 1; row < lines.size(); ++row) {
    const std::vector<double> v = csv_numbers(lines[row]);  // t,gid,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz
    const double t = v[0];
    const auto n = static_cast<long>(std::lround(t / h));
    SCOPED_TRACE(lines[row]);
    EXPECT_EQ(v[1], 6);
    EXPECT_EQ(v[2], 0.5);
    EXPECT_EQ(v[3], 0.4);
    EXPECT_EQ(v[9], 0.0);
    EXPECT_EQ(v[10], 0.0);
    EXPECT_EQ(v[12], 0.0);
    EXPECT_EQ(v[13], 0.0);
    const long pushed = std::min(n, 50L);
    EXPECT_NEAR(v[11], 2 * h * pushed, 1e-12);
    EXPECT_NEAR(v[4], 0.3 + 2 * h * h * pushed * (pushed + 1) / 2 + (n - pushed) * h * 2 * h * 50, 1e-12);
    EXPECT_NEAR(v[14], 10 * h * (n - pushed), 1e-12);
  }
}

// --from-checkpoint: the config's bodies join the saved bed with the gids after its last one.
// A bed of two spheres (gids 5, 6 after the walls) is saved after 5 steps; a new run on it adds
// an axial body, which takes gid 7 and follows its schedule: 1 N up on 1 kg without gravity,
// vz = n h after n steps (exact to rounding, 1e-12); a --restart of that run goes on to 20 steps.
TEST_F(TerrainBodies, AFromCheckpointRunAddsTheBodiesAfterTheBed) {
  const std::string container = R"("container": {"min": [0, 0, 0], "max": [1, 1, 1]}, "gravity": [0, 0, 0],
      "particles": [{"kind": "spheres", "spheres": [{"position": [0.2, 0.2, 0.1], "radius": 0.05},
                                                    {"position": [0.7, 0.2, 0.1], "radius": 0.05}]}],)";
  write("bed.json", "{" + container + R"("end_time": 0.005, "output": {"checkpoint_interval": 5, "progress_interval": 0}})");
  const std::string tool_text = "{" + container + R"("end_time": 0.01,
      "output": {"probes": [7], "probe_interval": 10, "progress_interval": 0, "checkpoint_interval": 10},
      "bodies": [{"name": "tool", "motion": "axial", "position": [0.5, 0.5, 0.5],
                  "shape": {"spheres": [[0, 0, 0, 0.05]], "mass": 1, "inertia": [0.01, 0.01, 0.01]},
                  "loads": [{"from": 0, "force": [0, 0, 1]}]}]})";
  write("tool.json", tool_text);
  std::string longer = tool_text;
  longer.replace(longer.find("\"end_time\": 0.01"), 16, "\"end_time\": 0.02");
  write("tool_longer.json", longer);
  const SettleOptions bed = run_options("bed.json", "bed");
  const SettleOptions tool = run_options("tool.json", "tool", "bed");
  std::ostringstream captured;
  auto* old = std::cout.rdbuf(captured.rdbuf());
  run_settle_command(bed);
  run_settle_command(tool);
  // A --restart of that run finds the body as the checkpoint's last gid, and its schedule goes on.
  SettleOptions restart = tool;
  restart.config = root_ / "tool_longer.json";
  restart.out_dir = root_ / "restarted";
  restart.from_checkpoint.clear();
  restart.restart = root_ / "tool" / "checkpoint.bin";
  run_settle_command(restart);
  std::cout.rdbuf(old);
  const std::vector<double> last = csv_numbers(test::read_lines(root_ / "restarted" / "probes.csv").back());
  EXPECT_EQ(last[1], 7);
  EXPECT_NEAR(last[0], 0.02, 1e-12);
  EXPECT_NEAR(last[11], 0.02, 1e-12);
  const std::vector<std::string> lines = test::read_lines(root_ / "tool" / "probes.csv");
  ASSERT_GE(lines.size(), 2u);
  const std::vector<double> v = csv_numbers(lines.back());  // t,gid,x,y,z,qw,qx,qy,qz,vx,vy,vz,...
  EXPECT_EQ(v[1], 7);
  EXPECT_EQ(v[2], 0.5);
  EXPECT_NEAR(v[11], std::lround(v[0] / 1e-3) * 1e-3, 1e-12);
  EXPECT_GT(v[0], 0.0);
  const std::string run = test::read_file(root_ / "tool" / "run.json");
  EXPECT_NE(run.find("bodies[0] (tool, axial)"), std::string::npos);
}

// The issue-34 case: a plate laid on a saved bed by a config with `bodies` and no `particles`.
// Its own scene is the 5 walls and the plate (gids 0 to 5), but the bed that runs is the file's
// 7 bodies (walls and two spheres, gids 0 to 6) and the plate after them, gid 7: a probe on it
// is accepted for --from-checkpoint and for a --restart of that run, and a probe past the bed is
// refused naming the bed's gids, not the scene's.
TEST_F(TerrainBodies, AProbeOnABodyLaidOnASavedBedIsCheckedAgainstTheBedThatRuns) {
  const std::string container = R"("container": {"min": [0, 0, 0], "max": [1, 1, 1]}, "gravity": [0, 0, 0],)";
  write("plate_bed.json", "{" + container + R"("particles": [{"kind": "spheres", "spheres":
      [{"position": [0.2, 0.2, 0.1], "radius": 0.05}, {"position": [0.7, 0.2, 0.1], "radius": 0.05}]}],
      "end_time": 0.002, "output": {"checkpoint_interval": 2, "progress_interval": 0}})");
  const auto plate = [&](int probe) {
    return "{" + container + R"("end_time": 0.004, "output": {"probes": [)" + std::to_string(probe) +
           R"(], "progress_interval": 0, "checkpoint_interval": 2},
      "bodies": [{"name": "plate", "motion": "fixed", "position": [0.5, 0.5, 0.5],
                  "shape": {"spheres": [[0, 0, 0, 0.05]], "mass": 1, "inertia": [0.01, 0.01, 0.01]}}]})";
  };
  write("plate.json", plate(7));
  write("plate_past.json", plate(8));
  const SettleOptions bed = run_options("plate_bed.json", "plate_bed");
  const SettleOptions on_bed = run_options("plate.json", "plate", "plate_bed");
  SettleOptions restart = run_options("plate.json", "plate_restarted");
  restart.restart = root_ / "plate" / "checkpoint.bin";
  const SettleOptions past = run_options("plate_past.json", "plate_past", "plate_bed");
  std::ostringstream captured;
  auto* old = std::cout.rdbuf(captured.rdbuf());
  run_settle_command(bed);
  std::string refused;
  try {
    run_settle_command(on_bed);
    run_settle_command(restart);
    run_settle_command(past);
  } catch (const io::ConfigError& e) {
    refused = e.what();
  }
  std::cout.rdbuf(old);
  // The first refusal: the past probe's (the runs before it were accepted).
  ASSERT_EQ(refused, (root_ / "plate_past.json").string() +
                         ": output.probes[0]: no body has gid 8 (the bed that runs, the checkpoint's bodies and the "
                         "config's `bodies`, has gids 0 to 7)");
  for (const char* folder : {"plate", "plate_restarted"}) {
    const std::vector<std::string> rows = test::read_lines(root_ / folder / "probes.csv");
    ASSERT_GE(rows.size(), 2u) << folder;
    EXPECT_EQ(csv_numbers(rows.back())[1], 7) << folder;
  }
}

// "kind": "rocks" scatters copies of one shape: one per cell of edge 2 R (1 + gap) (R = 0.05 m,
// the shape's reach: 0.03 + 0.02), so a 0.4 x 0.4 x 0.11 m box at gap 0.1 holds 3 x 3 x 1 rocks;
// each turned at random and moved within its cell, so no sphere of one rock reaches into
// another's (distance >= r1 + r2 for every pair). Two regions built apart give the whole
// build's bodies bit for bit (distributed generation), and run.json's config rebuilds them.
TEST_F(TerrainBodies, RocksAreScatteredWithoutOverlapAndTheSameInAnyRegion) {
  const std::string text = R"({"container": {"min": [0, 0, 0], "max": [1, 1, 1]}, "end_time": 0.01,
      "particles": [{"kind": "rocks", "min": [0.1, 0.1, 0.1], "max": [0.5, 0.5, 0.21], "seed": 4,
                     "shape": {"spheres": [[0.03, 0, 0, 0.02], [-0.03, 0, 0, 0.02]], "mass": 0.1,
                               "inertia": [1e-5, 5e-5, 5e-5]}}]})";
  const TerrainConfig c = parse(text);
  ASSERT_EQ(c.gid_ranges.size(), 6u);
  EXPECT_EQ(c.gid_ranges[5].what, "particles[0] (rocks)");
  EXPECT_EQ(c.gid_ranges[5].count, 9u);
  const gpu::BodySet& b = c.bodies;
  ASSERT_EQ(b.size(), 14u);
  EXPECT_EQ(sphere_count(c.scene), 18u);
  std::vector<Vec3> centre;
  std::vector<std::uint32_t> owner;
  for (std::size_t k = 0; k < b.sphere_radius.size(); ++k) {
    const std::uint32_t i = b.sphere_body[k];
    const Quat q{b.qw[i], b.qx[i], b.qy[i], b.qz[i]};
    EXPECT_NEAR(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z, 1, 1e-12);
    centre.push_back(Vec3{b.px[i], b.py[i], b.pz[i]} + rotate(q, {b.sphere_ox[k], b.sphere_oy[k], b.sphere_oz[k]}));
    owner.push_back(i);
    EXPECT_EQ(b.motion[i], gpu::Motion::Dynamic);
  }
  for (std::size_t k = 0; k < centre.size(); ++k)
    for (std::size_t l = k + 1; l < centre.size(); ++l) {
      if (owner[k] != owner[l]) EXPECT_GE(length(centre[k] - centre[l]), 0.04) << k << " " << l;
    }
  // Not all alike: the turns differ.
  EXPECT_NE(b.qw[5], b.qw[6]);
  // Built in two halves of space, the same bodies.
  const domain::Aabb low{{-10, -10, -10}, {0.3, 10, 10}}, high{{0.3, -10, -10}, {10, 10, 10}};
  const gpu::BodySet a = build_terrain_bodies(c.scene, low), z = build_terrain_bodies(c.scene, high);
  EXPECT_EQ(a.size() + z.size(), 9u + 2 * 5u);  // the walls in both
  for (const gpu::BodySet* part : {&a, &z})
    for (std::size_t i = 0; i < part->size(); ++i) {
      const std::size_t whole = part->gid[i];
      EXPECT_EQ(part->px[i], b.px[whole]);
      EXPECT_EQ(part->qx[i], b.qx[whole]);
    }
  const TerrainConfig again = parse_terrain_config(resolved_config_json(c.scene).dump(), "/elsewhere/run.json");
  EXPECT_EQ(again.bodies.px, b.px);
  EXPECT_EQ(again.bodies.qz, b.qz);
  EXPECT_EQ(again.bodies.sphere_ox, b.sphere_ox);
}

}  // namespace
}  // namespace trackcosim::terrain
