// The vehicle's VTK series (vehicle_node/output/): what a renderer reads back. Drawn directly
// from a stepped light robot (the blocks against the system's state), and through a standalone
// run (the .pvd's times, run.json, the interval's validation).

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>

#include <unistd.h>

#include <gtest/gtest.h>

#include "io/config_error.h"
#include "tests/support/vtk_scan.h"
#include "track_test_util.h"
#include "vehicle_node/output/vehicle_vtk_series.h"
#include "vehicle_node/standalone/standalone_run.h"
#include "vehicle_node/standalone/vehicle_recorder.h"

namespace trackcosim::vehicle {
namespace {

namespace fs = std::filesystem;
namespace scan = ::trackcosim::test::vtk_scan;

/// The light robot's config with `simulation` replaced (its other keys as shipped).
RunConfig robot_with(const std::string& simulation) {
  std::string text = scan::read_text(test::shipped_config("ndia_light_robot"));
  const std::size_t at = text.find("\"simulation\":");
  text = text.substr(0, at) + "\"simulation\": " + simulation + "\n}\n";
  return parse_run_config(text, "ndia_light_robot.json");
}

fs::path fresh_folder(const std::string& name) {
  const fs::path out = fs::temp_directory_path() / ("trackcosim_vehicle_vtk_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(out);
  fs::create_directories(out);
  return out;
}

/// 1 + per side: sprocket, idler, road wheels, rollers, shoes.
std::size_t drawn_count(const VehicleTemplate& v) {
  return 1 + 2 * (2 + v.track.road_wheels.positions.size() + v.track.rollers.positions.size() + v.track.shoes.count);
}

TEST(VehicleVtkSeries, BlocksDrawTheSystemsBodiesAndSpheres) {
  const fs::path out = fresh_folder("blocks");
  test::VehicleSim sim(robot_with(R"({"step": 1e-3, "output_interval": 0.01, "vtk_format": "ascii"})"));
  VehicleVtkSeries series(sim.vehicle, ShoeSpheres::kRigidGround, sim.config.simulation, out);
  series.on_row(sim.system, ground_forces(sim.system, sim.vehicle));  // frame 0 at t = 0: the chassis still level
  for (int k = 0; k < 200; ++k) sim.step(1e-3);
  const std::vector<Vec3> forces = ground_forces(sim.system, sim.vehicle);
  series.on_row(sim.system, forces);  // frame 1, the robot standing on the ground
  EXPECT_EQ(series.frames(), 2u);

  const std::string vtm = scan::read_text(out / "vtk/vehicle_000001.vtm");
  EXPECT_NE(vtm.find("type=\"vtkMultiBlockDataSet\""), std::string::npos);
  EXPECT_EQ(scan::datasets(vtm, "name"), (std::vector<std::string>{"bodies", "spheres", "frames"}));
  EXPECT_EQ(scan::datasets(vtm, "index"), (std::vector<std::string>{"0", "1", "2"}));
  EXPECT_EQ(scan::datasets(vtm, "file"), (std::vector<std::string>{"vehicle_000001/bodies.vtu",
                                                                   "vehicle_000001/spheres.vtu",
                                                                   "vehicle_000001/frames.vtu"}));

  const VehicleTemplate& model = sim.config.vehicle;
  const std::string bodies = scan::read_text(out / "vtk/vehicle_000001/bodies.vtu");
  const std::vector<double> body = scan::array_values(bodies, "body");
  EXPECT_EQ(std::set<double>(body.begin(), body.end()).size(), drawn_count(model));
  EXPECT_EQ(drawn_count(model), 1u + 2 * (2 + 5 + 61));
  EXPECT_EQ(scan::array_values(bodies, "kind").size(), body.size());
  EXPECT_EQ(scan::array_values(bodies, "types").size(), body.size());

  // Rigid ground: the pad's 2 x 2 spheres and the guide horn on each of the 2 x 61 shoes.
  const std::string spheres = scan::read_text(out / "vtk/vehicle_000001/spheres.vtu");
  EXPECT_EQ(scan::attribute(spheres, "NumberOfPoints"), std::to_string(2 * 61 * 5));
  EXPECT_EQ(scan::array_values(spheres, "radius").size(), 2u * 61 * 5);

  // Frames: chassis, then per side sprocket, idler, 5 road wheels, 61 shoes; shoes where the
  // system has them, to the bit (the text round-trips), with the ground's force on each.
  const std::string frames = scan::read_text(out / "vtk/vehicle_000001/frames.vtu");
  const std::vector<double> points = scan::array_values(frames, "Points");
  const std::vector<double> kind = scan::array_values(frames, "kind");
  const std::vector<double> shoe_force = scan::array_values(frames, "shoe_force");
  ASSERT_EQ(shoe_force.size(), 3 * drawn_count(model));
  std::size_t loaded = 0, shoe_row = 0;
  ASSERT_EQ(points.size(), 3 * drawn_count(model));
  EXPECT_EQ(scan::array_values(frames, "orientation").size(), 4 * drawn_count(model));
  std::size_t i = 0;
  EXPECT_EQ(kind[i++], 0);
  for (const Side s : kSides) {
    EXPECT_EQ(kind[i++], 1);
    EXPECT_EQ(kind[i++], 2);
    for (std::size_t w = 0; w < 5; ++w) EXPECT_EQ(kind[i++], 3);
    for (const BodyId shoe : sim.vehicle.track(s).shoes) {
      EXPECT_EQ(kind[i], 5);
      const Vec3 p = sim.system.state(shoe).position;
      EXPECT_EQ(points[3 * i], p.x);
      EXPECT_EQ(points[3 * i + 1], p.y);
      EXPECT_EQ(points[3 * i + 2], p.z);
      const Vec3 f = forces[shoe_row++];
      EXPECT_EQ(shoe_force[3 * i], f.x);
      EXPECT_EQ(shoe_force[3 * i + 1], f.y);
      EXPECT_EQ(shoe_force[3 * i + 2], f.z);
      if (f.z > 0) ++loaded;
      ++i;
    }
  }
  EXPECT_GT(loaded, 10u);  // the robot stands on its shoes: some carry it
  for (std::size_t k = 0; k < 3 * (1 + 2 + 5); ++k) EXPECT_EQ(shoe_force[k], 0.0);  // chassis, left wheels

  // The chassis at t = 0 (level, at its reference point): the box of its inertia, 1.6 x 0.8 x 0.4 m.
  const std::string first = scan::read_text(out / "vtk/vehicle_000000/bodies.vtu");
  const std::vector<double> xyz = scan::array_values(first, "Points");
  const std::vector<double> first_body = scan::array_values(first, "body");
  const std::vector<double> connectivity = scan::array_values(first, "connectivity");
  const std::vector<double> offsets = scan::array_values(first, "offsets");
  Vec3 lo{1e9, 1e9, 1e9}, hi{-1e9, -1e9, -1e9};
  for (std::size_t c = 0; c < first_body.size() && first_body[c] == 0; ++c)
    for (std::size_t k = c == 0 ? 0 : std::size_t(offsets[c - 1]); k < std::size_t(offsets[c]); ++k) {
      const auto p = std::size_t(connectivity[k]);
      lo = {std::min(lo.x, xyz[3 * p]), std::min(lo.y, xyz[3 * p + 1]), std::min(lo.z, xyz[3 * p + 2])};
      hi = {std::max(hi.x, xyz[3 * p]), std::max(hi.y, xyz[3 * p + 1]), std::max(hi.z, xyz[3 * p + 2])};
    }
  const Vec3 size = hi - lo, expected = chassis_box_size(model.chassis);
  const Vec3 m = model.chassis.inertia;  // I_xx = m (w^2 + h^2) / 12 and its siblings
  EXPECT_NEAR(model.chassis.mass * (expected.y * expected.y + expected.z * expected.z) / 12, m.x, 1e-9);
  EXPECT_NEAR(model.chassis.mass * (expected.x * expected.x + expected.z * expected.z) / 12, m.y, 1e-9);
  EXPECT_NEAR(model.chassis.mass * (expected.x * expected.x + expected.y * expected.y) / 12, m.z, 1e-9);
  EXPECT_NEAR(size.x, 1.6, 0.005);  // Float32 points, inertias given to 3 digits
  EXPECT_NEAR(size.y, 0.8, 0.005);
  EXPECT_NEAR(size.z, 0.4, 0.005);
  EXPECT_NEAR(size.x, expected.x, 1e-6);

  ChassisTemplate sized = model.chassis;
  sized.size = Vec3{2.0, 1.0, 0.5};
  EXPECT_EQ(chassis_box_size(sized).x, 2.0);
  fs::remove_all(out);
}

TEST(VehicleVtkSeries, CoSimulationSpheresAreTheTerrainsAndAResumedSeriesGoesOn) {
  const fs::path out = fresh_folder("resume");
  test::VehicleSim sim(robot_with(R"({"step": 1e-3, "output_interval": 0.01, "vtk_interval": 0.02})"));
  // The rows a checkpoint kept at 0.01, 0.02, 0.03 s: frames 0 (0.01 s) and 1 (0.03 s) again.
  VehicleVtkSeries series(sim.vehicle, ShoeSpheres::kTerrain, sim.config.simulation, out, {0.01, 0.02, 0.03});
  EXPECT_EQ(series.frames(), 2u);
  for (int k = 0; k < 30; ++k) sim.step(1e-3);
  for (int row = 4; row <= 5; ++row) {
    for (int k = 0; k < 10; ++k) sim.step(1e-3);
    series.on_row(sim.system, ground_forces(sim.system, sim.vehicle));  // row 4 (0.04 s) is between frames, row 5 is frame 2
  }
  const std::string pvd = scan::read_text(out / "vehicle.pvd");
  const std::vector<std::string> times = scan::datasets(pvd, "timestep");
  ASSERT_EQ(times.size(), 3u);
  EXPECT_EQ(times[0], "0.01");
  EXPECT_EQ(times[1], "0.03");
  EXPECT_NEAR(std::stod(times[2]), 0.05, 1e-12);
  EXPECT_EQ(scan::datasets(pvd, "file"), (std::vector<std::string>{"vtk/vehicle_000000.vtm", "vtk/vehicle_000001.vtm",
                                                                   "vtk/vehicle_000002.vtm"}));
  EXPECT_FALSE(fs::exists(out / "vtk/vehicle_000000.vtm"));  // the first run's: not rewritten
  // The terrain's denser pad (3 x 6) and the guide horn.
  const std::string spheres = scan::read_text(out / "vtk/vehicle_000002/spheres.vtu");
  EXPECT_EQ(scan::attribute(spheres, "NumberOfPoints"), std::to_string(2 * 61 * 19));
  EXPECT_EQ(series.run_json()["spheres"], 2 * 61 * 19);
  EXPECT_EQ(series.run_json()["bodies"], drawn_count(sim.config.vehicle));
  EXPECT_EQ(series.run_json()["interval"], 0.02);
  fs::remove_all(out);
}

TEST(VehicleVtkSeries, StandaloneRunListsFramesAtTheVtkIntervalAndMatchesShoesCsv) {
  const fs::path out = fresh_folder("standalone");
  const fs::path config = out / "robot.json";
  std::string text = scan::read_text(test::shipped_config("ndia_light_robot"));
  text.replace(text.find("\"simulation\":"), std::string::npos,
               "\"simulation\": {\"step\": 1e-3, \"end_time\": 0.1, \"output_interval\": 0.02, \"vtk_interval\": 0.04, "
               "\"vtk_format\": \"ascii\"}\n}\n");
  { std::ofstream(config) << text; }
  StandaloneOptions o;
  o.config = config;
  o.out_dir = out / "run";
  o.progress_seconds = 0;
  std::ostringstream progress;
  run_standalone(o, progress);

  // Rows at 0.02, 0.04, ..., 0.1 s; frames on rows 0, 2, 4.
  const std::string pvd = scan::read_text(o.out_dir / "vehicle.pvd");
  const std::vector<std::string> times = scan::datasets(pvd, "timestep");
  ASSERT_EQ(times.size(), 3u);
  const std::vector<double> expected{0.02, 0.06, 0.1};
  for (std::size_t f = 0; f < 3; ++f) EXPECT_NEAR(std::stod(times[f]), expected[f], 1e-12);
  EXPECT_EQ(scan::datasets(pvd, "file")[2], "vtk/vehicle_000002.vtm");

  // The last frame's shoes read as shoes.csv's x,y,z and fx,fy,fz of the last rows, character
  // for character.
  const std::string frames = scan::read_text(o.out_dir / "vtk/vehicle_000002/frames.vtu");
  const std::vector<std::string> points = scan::array_text(frames, "Points");
  const std::vector<std::string> shoe_force = scan::array_text(frames, "shoe_force");
  std::istringstream shoes(scan::read_text(o.out_dir / "shoes.csv"));
  std::vector<std::vector<std::string>> last;  // rows at the last t: t, shoe, side, x, y, z, ...
  for (std::string line; std::getline(shoes, line);) {
    std::vector<std::string> cells;
    std::istringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    if (cells[0] == times[2]) last.push_back(cells);
  }
  ASSERT_EQ(last.size(), 2u * 61);
  std::size_t i = 1 + 2 + 5;  // left: after the chassis, sprocket, idler, road wheels
  for (std::size_t r = 0; r < last.size(); ++r, ++i) {
    if (r == 61) i += 2 + 5;  // right: its sprocket, idler, road wheels
    for (int k = 0; k < 3; ++k) EXPECT_EQ(points[3 * i + k], last[r][3 + k]) << "shoe row " << r;
    for (int k = 0; k < 3; ++k) EXPECT_EQ(shoe_force[3 * i + k], last[r][16 + k]) << "shoe row " << r;
  }

  const nlohmann::json run = nlohmann::json::parse(scan::read_text(o.out_dir / "run.json"));
  EXPECT_EQ(run["vtk"]["series"], "vehicle.pvd");
  EXPECT_EQ(run["vtk"]["interval"], 0.04);
  EXPECT_EQ(run["vtk"]["bodies"], 137);
  EXPECT_EQ(run["vtk"]["spheres"], 2 * 61 * 5);
  fs::remove_all(out);
}

TEST(VehicleVtkSeries, IntervalZeroWritesNothing) {
  const fs::path out = fresh_folder("off");
  test::VehicleSim sim(robot_with(R"({"output_interval": 0.01, "vtk_interval": 0})"));
  VehicleVtkSeries series(sim.vehicle, ShoeSpheres::kRigidGround, sim.config.simulation, out);
  series.on_row(sim.system, ground_forces(sim.system, sim.vehicle));
  EXPECT_EQ(series.frames(), 0u);
  EXPECT_TRUE(series.run_json().is_null());
  EXPECT_TRUE(fs::is_empty(out));
  fs::remove_all(out);
}

TEST(VehicleVtkSeries, IntervalNotAMultipleOfTheOutputIntervalIsRefusedByName) {
  try {
    robot_with(R"({"output_interval": 0.02, "vtk_interval": 0.03})");
    FAIL() << "accepted";
  } catch (const io::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("simulation.vtk_interval"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("whole multiple of the output interval"), std::string::npos) << e.what();
  }
  EXPECT_THROW(robot_with(R"({"output_interval": 0.02, "vtk_interval": 0.01})"), io::ConfigError);
  EXPECT_THROW(robot_with(R"({"vtk_interval": -1})"), io::ConfigError);
  // Checked again after the command line: --output-interval 0.03 under a config's 0.04.
  SimulationSettings s;
  s.output_interval = 0.03;
  s.vtk_interval = 0.04;
  try {
    check_simulation_settings(s);
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("simulation.vtk_interval"), std::string::npos) << e.what();
  }
  s.vtk_interval = 0.09;  // three rows per frame
  EXPECT_NO_THROW(check_simulation_settings(s));
  EXPECT_EQ(rows_per_vtk_frame(s), 3u);
}

// The default binary frames hold what the ASCII ones do, to Float32's precision (the integers
// exactly), in a fraction of the bytes, and say so in run.json.
TEST(VehicleVtkSeries, BinaryFramesHoldTheAsciiValuesInFewerBytes) {
  const fs::path out = fresh_folder("binary");
  test::VehicleSim sim(robot_with(R"({"step": 1e-3, "output_interval": 0.01})"));
  for (int k = 0; k < 30; ++k) sim.step(1e-3);
  const std::vector<Vec3> forces = ground_forces(sim.system, sim.vehicle);
  SimulationSettings ascii_settings = sim.config.simulation;
  ascii_settings.vtk_format = io::vtk::Encoding::Ascii;
  VehicleVtkSeries binary(sim.vehicle, ShoeSpheres::kRigidGround, sim.config.simulation, out / "binary");
  VehicleVtkSeries ascii(sim.vehicle, ShoeSpheres::kRigidGround, ascii_settings, out / "ascii");
  binary.on_row(sim.system, forces);
  ascii.on_row(sim.system, forces);
  EXPECT_EQ(binary.run_json()["format"], "binary");
  EXPECT_EQ(ascii.run_json()["format"], "ascii");
  std::uintmax_t binary_bytes = 0, ascii_bytes = 0;
  for (const char* block : {"bodies", "spheres", "frames"}) {
    const fs::path file = fs::path("vtk/vehicle_000000") / (std::string(block) + ".vtu");
    const std::string b = scan::read_text(out / "binary" / file), a = scan::read_text(out / "ascii" / file);
    EXPECT_NE(b.find("compressor=\"vtkZLibDataCompressor\""), std::string::npos);
    EXPECT_NE(b.find("format=\"appended\""), std::string::npos);
    EXPECT_EQ(b.find("format=\"ascii\""), std::string::npos);
    for (const char* name : {"Points", "radius", "kind", "body", "connectivity", "offsets", "types", "orientation",
                             "velocity", "shoe_force", "shoe"}) {
      const std::vector<double> bv = scan::array_values(b, name), av = scan::array_values(a, name);
      ASSERT_EQ(bv.size(), av.size()) << block << " " << name;
      for (std::size_t i = 0; i < av.size(); ++i)
        EXPECT_NEAR(bv[i], av[i], 1e-6 * std::max(1.0, std::abs(av[i]))) << block << " " << name << " " << i;
    }
    binary_bytes += fs::file_size(out / "binary" / file);
    ascii_bytes += fs::file_size(out / "ascii" / file);
  }
  EXPECT_LT(3 * binary_bytes, ascii_bytes);
  fs::remove_all(out);
}

}  // namespace
}  // namespace trackcosim::vehicle
