// terrain_node --config end to end, in-process: a 324-sphere bed of 4 layers dropped into a box
// for 300 steps. Asserts on the folder (probes.csv rows and header, stats.csv columns, a .pvd
// that lists every .pvtu frame and each its one piece, run.json with the memory figures) and on
// the physics: the bed falls, and its kinetic energy at
// the end is below 2% of its peak (the bed comes to rest instead of bouncing or exploding).
// A 20-step run of the program with 2 threads must agree with the in-process 1-thread run to the
// bit (DESIGN.md).

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "terrain_node/output/probe_csv_writer.h"
#include "terrain_node/output/step_stats_csv_writer.h"
#include "terrain_node/standalone/settle_command.h"
#include "tests/support/text_files.h"

namespace trackcosim::terrain {
namespace {

namespace fs = std::filesystem;
using test::read_file;
using test::read_lines;

// 9 x 9 spheres per layer (pitch 11 mm in 0.1 m), 4 layers: gids 0-4 walls, 5-328 spheres.
constexpr const char* kScene = R"({
  "container": {"min": [0, 0, 0], "max": [0.1, 0.1, 0.2]},
  "particles": [{"kind": "layers", "min": [0, 0], "max": [0.1, 0.1], "bottom": 0.005, "layers": 4,
                 "radius": 0.005, "seed": 1}],
  "step_size": 1e-3,
  "end_time": 0.3,
  "solver": {"max_iterations": 30, "max_recovery_speed": 0.5},
  "collision": {"envelope": 0.0005},
  "output": {"probes": [5, 328], "probe_interval": 10, "snapshot_interval": 100, "progress_interval": 0}
})";

constexpr std::size_t kSpheres = 324, kSteps = 300;

std::vector<double> numbers(const std::string& line) {
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

/// Runs the scene once into its own folder; the runs are shared by the tests of the suite.
class SettleRun : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // ctest runs each test in its own process, maybe in parallel: one folder per process.
    root_ = fs::temp_directory_path() / ("trackcosim_settle_run_test_" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_);
    std::ofstream(root_ / "tiny.json") << kScene;
    // The 2-thread run is the program itself and makes only the first 20 steps. It waits
    // passively: under ctest -j on 2 cores, spinning OpenMP barriers of an oversubscribed
    // 2-thread run make every parallel region of the step many times slower.
    std::string short_scene = kScene;
    const std::string end_time = "\"end_time\": 0.3";
    short_scene.replace(short_scene.find(end_time), end_time.size(), "\"end_time\": 0.02");
    std::ofstream(root_ / "tiny_short.json") << short_scene;
    run_quietly({root_ / "tiny.json", folder(1), 1});
    const std::string command = "OMP_WAIT_POLICY=passive " + std::string(TERRAIN_NODE_EXE) + " --config " +
                                (root_ / "tiny_short.json").string() + " --out " + folder(2).string() +
                                " --threads 2 > " + (root_ / "two_threads.log").string() + " 2>&1";
    ASSERT_EQ(std::system(command.c_str()), 0) << read_file(root_ / "two_threads.log");
  }
  static void run_quietly(const SettleOptions& options) {
    std::ostringstream captured;
    auto* old = std::cout.rdbuf(captured.rdbuf());
    run_settle_command(options);
    std::cout.rdbuf(old);
  }
  static void TearDownTestSuite() { fs::remove_all(root_); }
  static fs::path folder(int threads) { return root_ / ("out_" + std::to_string(threads)); }

  static inline fs::path root_;
};

TEST_F(SettleRun, ProbesCsvHasTheHeaderAndOneRowPerProbePerInterval) {
  const std::vector<std::string> lines = read_lines(folder(1) / "probes.csv");
  ASSERT_EQ(lines.size(), 1 + 2 * (kSteps / 10 + 1));
  EXPECT_EQ(lines[0], terrain::kProbeCsvHeader);
  for (std::size_t row = 0; row + 1 < lines.size(); ++row) {
    const std::vector<double> v = numbers(lines[1 + row]);
    ASSERT_EQ(v.size(), 15u) << lines[1 + row];
    EXPECT_NEAR(v[0], 0.01 * double(row / 2), 1e-12);
    EXPECT_EQ(v[1], row % 2 == 0 ? 5 : 328);
  }
  // The top sphere fell onto the bed below it; both probes end (nearly) at rest.
  const std::vector<double> top_first = numbers(lines[2]), top_last = numbers(lines.back());
  EXPECT_LT(top_last[4], top_first[4] - 0.0005);
  EXPECT_GT(top_last[4], 0.005);  // still above the floor: it did not fall through
  for (int k = 9; k < 12; ++k) EXPECT_LT(std::abs(top_last[k]), 0.05) << "velocity component " << k - 9;
}

TEST_F(SettleRun, StatsCsvHasEveryColumnAndOneRowPerStep) {
  const std::vector<std::string> lines = read_lines(folder(1) / "stats.csv");
  ASSERT_EQ(lines.size(), 1 + kSteps);
  EXPECT_EQ(lines[0], terrain::step_stats_csv_header());
  const std::vector<std::string> names = test::csv_fields(lines[0]);
  for (const char* stage : {"ghosts", "proxies", "collision", "ownership", "solve", "integrate", "loads"})
    EXPECT_NE(std::find(names.begin(), names.end(), stage), names.end()) << stage;
  for (std::size_t k = 1; k <= kSteps; ++k) {
    const std::vector<double> v = numbers(lines[k]);
    ASSERT_EQ(v.size(), names.size());
    EXPECT_EQ(v[0], double(k));
    EXPECT_NEAR(v[1], 1e-3 * double(k), 1e-12);
  }
  EXPECT_GT(numbers(lines.back())[2], double(kSpheres));  // contacts: the bed rests on neighbours and floor
}

TEST_F(SettleRun, KineticEnergyAtTheEndIsFarBelowItsPeak) {
  const std::vector<std::string> lines = read_lines(folder(1) / "stats.csv");
  double peak = 0;
  for (std::size_t k = 1; k < lines.size(); ++k) peak = std::max(peak, numbers(lines[k])[5]);
  const double last = numbers(lines.back())[5];
  // A 4-layer bed falls at most ~0.03 m: peak ~ m g h ~ 324 * 1.3e-3 kg * 9.81 * 0.03 / 2 ~ 0.06 J.
  EXPECT_GT(peak, 0.01);
  EXPECT_LT(last, 0.02 * peak) << "peak " << peak << " J, last " << last << " J";
}

TEST_F(SettleRun, PvdListsEverySnapshotFrameAndEachFrameItsPiece) {
  const std::string pvd = read_file(folder(1) / "particles.pvd");
  std::set<std::string> listed;
  for (std::size_t at = pvd.find("file=\""); at != std::string::npos; at = pvd.find("file=\"", at + 1)) {
    const std::size_t start = at + 6;
    listed.insert(pvd.substr(start, pvd.find('"', start) - start));
  }
  // On one rank a frame is a .pvtu and the one piece it names: nothing else is in the folder.
  std::set<std::string> frames, pieces;
  for (const auto& entry : fs::directory_iterator(folder(1) / "particles")) {
    const std::string name = entry.path().filename().string();
    (name.ends_with(".pvtu") ? frames : pieces).insert("particles/" + name);
  }
  EXPECT_EQ(listed, frames);
  EXPECT_EQ(listed.size(), kSteps / 100 + 1);  // steps 0, 100, 200, 300
  EXPECT_EQ(pieces.size(), listed.size());
  for (const std::string& file : listed) {
    const std::string piece = file.substr(0, file.size() - 5) + "_r0.vtu";
    EXPECT_TRUE(pieces.contains(piece)) << piece;
    EXPECT_NE(read_file(folder(1) / file).find("<Piece Source=\"" + piece.substr(10) + "\"/>"), std::string::npos)
        << file;
    const std::string vtu = read_file(folder(1) / piece);
    EXPECT_NE(vtu.find("NumberOfPoints=\"" + std::to_string(kSpheres) + "\""), std::string::npos) << piece;
    EXPECT_NE(vtu.find("Name=\"velocity\""), std::string::npos) << piece;
  }
  EXPECT_NE(pvd.find("timestep=\"0.3"), std::string::npos);
}

TEST_F(SettleRun, RunJsonRecordsTheResolvedConfigAndTotals) {
  const nlohmann::json run = nlohmann::json::parse(read_file(folder(2) / "run.json"));
  EXPECT_EQ(run["program"], "terrain_node");
  EXPECT_EQ(run["threads"], 2);
  EXPECT_EQ(run["threads_from"], "explicit");  // --threads 2
  EXPECT_EQ(run["status"], "finished");
  EXPECT_EQ(run["steps_done"], 20);
  EXPECT_EQ(run["bodies"], kSpheres + 5);
  EXPECT_EQ(run["config"]["solver"]["max_iterations"], 30);
  EXPECT_EQ(run["config"]["solver"]["method"], "apgd");  // a default, filled in
  EXPECT_EQ(run["gid_ranges"].back()["what"], "particles[0] (layers)");
}

TEST_F(SettleRun, RunJsonHasEachRanksStartUpAndPeakMemory) {
  const nlohmann::json memory = nlohmann::json::parse(read_file(folder(2) / "run.json"))["memory"];
  ASSERT_EQ(memory["baseline_rss_bytes"].size(), 1u) << memory;
  ASSERT_EQ(memory["peak_rss_bytes"].size(), 1u) << memory;
  const auto baseline = memory["baseline_rss_bytes"][0].get<std::uint64_t>();
  const auto peak = memory["peak_rss_bytes"][0].get<std::uint64_t>();
  EXPECT_GT(baseline, 0u);
  EXPECT_GE(peak, baseline);
  EXPECT_FALSE(memory["note"].get<std::string>().empty());
  EXPECT_NE(read_file(root_ / "two_threads.log").find("\nmemory     peak RSS per rank "), std::string::npos);
}

TEST_F(SettleRun, OneAndTwoThreadsGiveTheSameBits) {
  // Probes and stats (all but the wall-time columns) of the first 20 steps, to the bit.
  const std::vector<std::string> probes_1 = read_lines(folder(1) / "probes.csv");
  const std::vector<std::string> probes_2 = read_lines(folder(2) / "probes.csv");
  ASSERT_EQ(probes_2.size(), 1u + 2u * 3u);
  EXPECT_TRUE(std::equal(probes_2.begin(), probes_2.end(), probes_1.begin()));
  const std::vector<std::string> stats_1 = read_lines(folder(1) / "stats.csv");
  const std::vector<std::string> stats_2 = read_lines(folder(2) / "stats.csv");
  ASSERT_EQ(stats_2.size(), 21u);
  for (std::size_t k = 1; k < stats_2.size(); ++k) {
    const std::vector<double> a = numbers(stats_1[k]), b = numbers(stats_2[k]);
    for (std::size_t c = 0; c < 7; ++c) EXPECT_EQ(a[c], b[c]) << "step " << k << " column " << c;
  }
  EXPECT_EQ(read_file(folder(1) / "particles" / "step_00000000_r0.vtu"),
            read_file(folder(2) / "particles" / "step_00000000_r0.vtu"));
}

}  // namespace
}  // namespace trackcosim::terrain
