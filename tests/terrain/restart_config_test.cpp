// Issue 17 item 6: a run started from a checkpoint says which bed it holds. --restart continues
// the run that wrote the checkpoint, so a config that would make another bed (here: 4 layers
// where the checkpoint's run had 3) is refused, naming what differs and both values, while the
// settings that say how the run goes on (end_time, solver, output) may change; --from-checkpoint
// runs the checkpoint's bed whatever the config's particles, and run.json records that bed's
// body and sphere counts, not the config's. Runs are in-process, a few steps of a tiny bed.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "io/config_error.h"
#include "terrain_node/checkpoint/terrain_checkpoint.h"
#include "terrain_node/standalone/settle_command.h"
#include "tests/support/config_errors.h"
#include "tests/support/text_files.h"

namespace trackcosim::terrain {
namespace {

namespace fs = std::filesystem;

/// 5 walls and `layers` x 16 spheres; `extra` goes in at the top level.
std::string bed(int layers, const std::string& end_time, const std::string& extra = "") {
  return R"({"container": {"min": [0, 0, 0], "max": [0.088, 0.088, 0.3]},
  "particles": [{"kind": "layers", "min": [0, 0], "max": [0.088, 0.088], "bottom": 0.011, "layers": )" +
         std::to_string(layers) + R"(, "radius": 0.01, "seed": 4}],
  "step_size": 1e-3, "end_time": )" +
         end_time + ", " + extra + R"("output": {"progress_interval": 0, "stats": false}})";
}

class RestartConfig : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    root_ = fs::temp_directory_path() / ("trackcosim_restart_config_test_" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_);
    write("three.json", bed(3, "0.004"));
    SettleOptions first{root_ / "three.json", root_ / "first"};
    first.checkpoint_at = 4;
    run(first);
  }
  static void TearDownTestSuite() { fs::remove_all(root_); }

  static void write(const std::string& name, const std::string& text) { std::ofstream(root_ / name) << text; }
  /// The run's summary goes to stdout through printf: captured, so that the test log stays short.
  static void run(const SettleOptions& options) {
    ::testing::internal::CaptureStdout();
    try {
      run_settle_command(options);
    } catch (...) {
      ::testing::internal::GetCapturedStdout();
      throw;
    }
    ::testing::internal::GetCapturedStdout();
  }
  static std::string refusal(const SettleOptions& options) {
    try {
      run(options);
    } catch (const io::ConfigError& e) {
      return e.what();
    }
    ADD_FAILURE() << "accepted " << options.config;
    return {};
  }
  static nlohmann::json run_json(const std::string& folder) {
    return nlohmann::json::parse(test::read_file(root_ / folder / "run.json"));
  }
  static fs::path checkpoint() { return root_ / "first" / "checkpoint.bin"; }

  static inline fs::path root_;
};

TEST_F(RestartConfig, ARestartWithAnotherBedIsRefusedNamingWhatDiffers) {
  write("four.json", bed(4, "0.008"));
  SettleOptions options{root_ / "four.json", root_ / "four"};
  options.restart = checkpoint();
  const std::string message = refusal(options);
  EXPECT_NE(message.find("--restart " + checkpoint().string() + ": the config " + (root_ / "four.json").string() +
                         " does not match the run that wrote the checkpoint: particles[0].layers is 4 here and 3 in "
                         "that run"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("--from-checkpoint"), std::string::npos) << message;
  EXPECT_FALSE(fs::exists(root_ / "four" / "run.json"));
}

TEST_F(RestartConfig, ARefusalNamesTheKeyTheUserChangedNotOneDerivedFromIt) {
  // The container's floor and wall friction default to material.friction: the resolved configs
  // differ there too, but the user wrote material.friction.
  write("rougher.json", bed(3, "0.008", R"("material": {"friction": 0.3}, )"));
  SettleOptions options{root_ / "rougher.json", root_ / "rougher"};
  options.restart = checkpoint();
  const std::string message = refusal(options);
  EXPECT_NE(message.find("does not match the run that wrote the checkpoint: material.friction is 0.3 here and 0.5 in "
                         "that run"),
            std::string::npos)
      << message;
}

TEST_F(RestartConfig, ACheckpointWithoutItsRunsConfigIsCheckedByItsCounts) {
  // As a checkpoint written before checkpoints recorded their config.
  TerrainCheckpoint c = read_checkpoint(checkpoint());
  c.config_text.clear();
  write_checkpoint(root_ / "bare.bin", c);
  write("four.json", bed(4, "0.008"));
  SettleOptions options{root_ / "four.json", root_ / "bare_four"};
  options.restart = root_ / "bare.bin";
  EXPECT_TRUE(test::starts_with(refusal(options), "--restart " + (root_ / "bare.bin").string() + ": the config " +
                                                       (root_ / "four.json").string() +
                                                       " makes 69 bodies and 64 spheres (walls, particles and "
                                                       "obstacles), the checkpoint holds 53 bodies and 48 spheres"));
}

TEST_F(RestartConfig, ARestartMayChangeEndTimeSolverAndOutputs) {
  write("three_longer.json", bed(3, "0.008", R"("solver": {"max_iterations": 7}, )"));
  SettleOptions options{root_ / "three_longer.json", root_ / "longer"};
  options.restart = checkpoint();
  ASSERT_NO_THROW(run(options));
  const nlohmann::json j = run_json("longer");
  EXPECT_EQ(j["bodies"], 53);
  EXPECT_EQ(j["spheres"], 48);
  EXPECT_EQ(j["restarted_from"]["checkpoint"], checkpoint().string());
  EXPECT_EQ(j["restarted_from"]["step"], 4);
  EXPECT_EQ(j["steps_done"], 8);
}

TEST_F(RestartConfig, FromCheckpointRecordsTheCheckpointsBedNotTheConfigs) {
  write("four_new.json", bed(4, "0.002"));
  SettleOptions options{root_ / "four_new.json", root_ / "new"};
  options.from_checkpoint = checkpoint();
  ASSERT_NO_THROW(run(options));
  nlohmann::json j = run_json("new");
  EXPECT_EQ(j["bodies"], 53);  // the checkpoint's 5 walls and 48 spheres; the config's 4 layers would be 69
  EXPECT_EQ(j["spheres"], 48);
  EXPECT_EQ(j["bed_checkpoint"], checkpoint().string());
  EXPECT_EQ(j["steps_done"], 2);

  // Its own checkpoint records where its bed came from: a --restart with the same config goes on
  // with that bed, whose counts are not the config's.
  write("four_new_longer.json", bed(4, "0.004"));
  SettleOptions again{root_ / "four_new_longer.json", root_ / "new_again"};
  again.restart = root_ / "new_again.bin";
  {
    SettleOptions stop{root_ / "four_new.json", root_ / "new_stop"};
    stop.from_checkpoint = checkpoint();
    stop.checkpoint_at = 1;
    run(stop);
  }
  fs::copy_file(root_ / "new_stop" / "checkpoint.bin", root_ / "new_again.bin", fs::copy_options::overwrite_existing);
  ASSERT_NO_THROW(run(again));
  j = run_json("new_again");
  EXPECT_EQ(j["bodies"], 53);
  EXPECT_EQ(j["bed_checkpoint"], checkpoint().string());
  EXPECT_EQ(j["restarted_from"]["step"], 1);
}

}  // namespace
}  // namespace trackcosim::terrain
