// terrain_node --config with a settle section, in-process: a 324-sphere bed dropped into a box
// stops at the first check where its rms speed sqrt(2 E / M) is below the threshold (and not
// before), or at the time cap; settle.json, run.json, checkpoint.bin and the final snapshot say
// so. Then the settle statistics of a bed with known answers: a 6 x 6 x 6 simple cubic lattice of
// touching spheres filling a box (packing pi/6 in the sample box, 35/6 touching contacts per
// sphere, depth 6 diameters).

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>

#include <nlohmann/json.hpp>

#include "terrain_node/checkpoint/terrain_checkpoint.h"
#include "terrain_node/output/snapshot_files.h"
#include "terrain_node/standalone/settle_command.h"
#include "tests/support/text_files.h"

namespace trackcosim::terrain {
namespace {

namespace fs = std::filesystem;
using test::read_file;
using test::read_lines;

constexpr double kRadius = 0.005, kDensity = 2500;
constexpr int kSpheres = 324;
const double kMass = kSpheres * kDensity * 4.0 / 3.0 * std::numbers::pi * kRadius * kRadius * kRadius;

std::string bed(const std::string& settle) {
  return R"({
  "container": {"min": [0, 0, 0], "max": [0.1, 0.1, 0.2]},
  "particles": [{"kind": "layers", "min": [0, 0], "max": [0.1, 0.1], "bottom": 0.005, "layers": 4,
                 "radius": 0.005, "seed": 1}],
  "material": {"density": 2500},
  "step_size": 1e-3,
  "end_time": 1.0,
  "solver": {"method": "jacobi", "max_iterations": 30, "max_recovery_speed": 0.5},
  "collision": {"envelope": 0.0005},
  "settle": )" + settle + R"(,
  "output": {"snapshot_interval": 0, "progress_interval": 0}
})";
}

class SettleCriterionRun : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    root_ = fs::temp_directory_path() / ("trackcosim_settle_criterion_test_" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_);
    ::testing::internal::CaptureStdout();
    run("threshold", bed(R"({"rms_speed": 0.03, "check_interval": 10})"));
    threshold_stdout_ = ::testing::internal::GetCapturedStdout();
    run("cap", bed(R"({"rms_speed": 1e-4, "max_time": 0.1, "check_interval": 10})"));
  }
  static void TearDownTestSuite() { fs::remove_all(root_); }
  static void run(const std::string& name, const std::string& config) {
    std::ofstream(root_ / (name + ".json")) << config;
    SettleOptions options;
    options.config = root_ / (name + ".json");
    options.out_dir = root_ / name;
    options.threads = 1;
    run_settle_command(options);
  }
  static nlohmann::json settle(const std::string& name) {
    return nlohmann::json::parse(read_file(root_ / name / "settle.json"));
  }
  /// rms speed per step from stats.csv's kinetic energy column.
  static std::vector<double> rms_history(const std::string& name) {
    std::vector<double> out{0};
    const std::vector<std::string> lines = read_lines(root_ / name / "stats.csv");
    for (std::size_t k = 1; k < lines.size(); ++k)
      out.push_back(std::sqrt(2 * std::stod(test::csv_fields(lines[k])[5]) / kMass));
    return out;
  }
  static inline fs::path root_;
  static inline std::string threshold_stdout_;
};

TEST_F(SettleCriterionRun, StopsAtTheFirstCheckBelowTheThreshold) {
  const nlohmann::json s = settle("threshold");
  EXPECT_EQ(s["stop_reason"], "threshold");
  const std::uint64_t steps = s["steps"];
  EXPECT_EQ(steps % 10, 0u);
  EXPECT_LT(steps, 1000u);
  EXPECT_LT(s["rms_speed"].get<double>(), 0.03);
  EXPECT_NEAR(s["rms_speed"].get<double>(), std::sqrt(2 * s["kinetic_energy"].get<double>() / kMass), 1e-12);
  EXPECT_NEAR(s["kinetic_energy_per_particle"].get<double>(), s["kinetic_energy"].get<double>() / kSpheres, 1e-18);
  const std::vector<double> rms = rms_history("threshold");
  ASSERT_EQ(rms.size(), steps + 1);
  EXPECT_NEAR(rms[steps], s["rms_speed"].get<double>(), 1e-12);
  for (std::uint64_t k = 10; k < steps; k += 10) EXPECT_GE(rms[k], 0.03) << "check at step " << k;
}

TEST_F(SettleCriterionRun, TheSettledBedIsCheckpointedAndSnapshotted) {
  const std::uint64_t steps = settle("threshold")["steps"];
  const terrain::TerrainCheckpoint c = terrain::read_checkpoint(root_ / "threshold" / "checkpoint.bin");
  EXPECT_EQ(c.step, steps);
  EXPECT_EQ(c.bodies.size(), std::size_t(kSpheres + 5));
  const std::string stem = terrain::snapshot_stem(steps);
  EXPECT_TRUE(fs::exists(root_ / "threshold" / "particles" / (stem + ".pvtu"))) << stem;
  EXPECT_TRUE(fs::exists(root_ / "threshold" / "particles" / (stem + "_r0.vtu"))) << stem;
  EXPECT_NE(read_file(root_ / "threshold" / "particles.pvd").find(stem + ".pvtu"), std::string::npos);
  const nlohmann::json run = nlohmann::json::parse(read_file(root_ / "threshold" / "run.json"));
  EXPECT_EQ(run["settle"]["stop_reason"], "threshold");
  EXPECT_EQ(run["steps_done"], steps);
}

TEST_F(SettleCriterionRun, StopsAtTheTimeCapWhenTheThresholdIsNotReached) {
  const nlohmann::json s = settle("cap");
  EXPECT_EQ(s["stop_reason"], "time_cap");
  EXPECT_EQ(s["steps"], 100);
  EXPECT_NEAR(s["time"].get<double>(), 0.1, 1e-12);
  EXPECT_GE(s["rms_speed"].get<double>(), 1e-4);
}

TEST_F(SettleCriterionRun, TheDepthIsThatOfFourLayersPiledLoosely) {
  // 324 spheres of d = 1 cm over 0.1 m x 0.1 m: 3.24 layers' worth of a square packing; any packing
  // between simple cubic (0.52) and random close (0.64) puts the mean top 2.7 to 3.4 cm up.
  const nlohmann::json s = settle("threshold");
  EXPECT_GT(s["depth_mean"].get<double>(), 0.025);
  EXPECT_LT(s["depth_mean"].get<double>(), 0.04);
  EXPECT_GE(s["depth_max"].get<double>(), s["depth_mean"].get<double>());
  EXPECT_LT(s["depth_max"].get<double>(), 0.05);
}

// Four layers of 1 cm spheres settle about 3 cm deep: less than the 2 x 2 mean diameters of
// packing margin above the floor and below the surface, so no sample box fits. The summary says
// so instead of printing "packing nan" (issue 17 item 8b), and settle.json carries the reason.
TEST_F(SettleCriterionRun, ABedTooThinForASamplingBoxSaysWhyInsteadOfNan) {
  const nlohmann::json s = settle("threshold");
  EXPECT_TRUE(s["packing_fraction"].is_null());
  const std::string note = s["packing_note"].get<std::string>();
  EXPECT_TRUE(note.starts_with("the bed's mean depth 0.0")) << note;
  EXPECT_NE(note.find("= 0.04 m, so no sample box fits"), std::string::npos) << note;
  const std::string& out = threshold_stdout_;
  EXPECT_EQ(out.find("nan"), std::string::npos) << out;
  EXPECT_NE(out.find("packing    n/a (" + note + ")\n"), std::string::npos) << out;
  EXPECT_NE(out.find(" packing=n/a contacts_per_particle="), std::string::npos) << out;
}

/// 6 x 6 x 6 touching spheres of diameter 1 cm in a box whose walls touch them.
std::string lattice_bed() {
  std::string spheres;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j)
      for (int k = 0; k < 6; ++k) {
        if (!spheres.empty()) spheres += ",";
        spheres += "{\"position\": [" + std::to_string((i + 0.5) * 0.01) + ", " + std::to_string((j + 0.5) * 0.01) +
                   ", " + std::to_string((k + 0.5) * 0.01) + "], \"radius\": 0.005}";
      }
  return R"({
  "container": {"min": [0, 0, 0], "max": [0.06, 0.06, 0.2]},
  "particles": [{"kind": "spheres", "spheres": [)" + spheres + R"(]}],
  "step_size": 1e-5, "end_time": 1e-5,
  "solver": {"method": "jacobi", "max_iterations": 50},
  "collision": {"envelope": 0.0005},
  "output": {"snapshot_interval": 0, "progress_interval": 0}
})";
}

TEST(SettleStatistics, ASimpleCubicLatticeHasItsKnownPackingCoordinationAndDepth) {
  const fs::path root = fs::temp_directory_path() / ("trackcosim_lattice_stats_test_" + std::to_string(::getpid()));
  fs::create_directories(root);
  std::ofstream(root / "lattice.json") << lattice_bed();
  SettleOptions options;
  options.config = root / "lattice.json";
  options.out_dir = root / "out";
  options.threads = 1;
  run_settle_command(options);
  const nlohmann::json s = nlohmann::json::parse(read_file(root / "out" / "settle.json"));
  fs::remove_all(root);
  // One step of 10 us moves nothing by more than g h^2 = 1e-9 m: the lattice's own numbers.
  constexpr double kMoved = 1e-8;
  EXPECT_EQ(s["stop_reason"], "end_time");
  EXPECT_EQ(s["particles"], 216);
  EXPECT_NEAR(s["mean_diameter"].get<double>(), 0.01, 1e-15);
  EXPECT_NEAR(s["depth_mean"].get<double>(), 0.06, kMoved);
  EXPECT_NEAR(s["depth_max"].get<double>(), 0.06, kMoved);
  // Sample box: 2 diameters in from the walls, floor and surface = 2 x 2 x 2 whole lattice cells.
  EXPECT_NEAR(s["packing_sample_box"]["min"][0].get<double>(), 0.02, 1e-12);
  EXPECT_NEAR(s["packing_sample_box"]["max"][2].get<double>(), 0.04, kMoved);
  EXPECT_NEAR(s["packing_fraction"].get<double>(), std::numbers::pi / 6, 1e-6);
  EXPECT_TRUE(s["packing_note"].is_null());
  // Each sphere touches 6 neighbours or walls, except the top layer's 36 (no lid): 6 - 1/6.
  EXPECT_NEAR(s["contacts_per_particle"].get<double>(), 35.0 / 6.0, 1e-12);
  EXPECT_LE(s["loaded_contacts_per_particle"].get<double>(), s["contacts_per_particle"].get<double>());
  EXPECT_EQ(s["heightmap"]["columns"], 6);
  EXPECT_EQ(s["heightmap"]["filled_cells"], 36);
}

}  // namespace
}  // namespace trackcosim::terrain
