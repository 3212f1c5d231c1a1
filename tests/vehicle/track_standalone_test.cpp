// Standalone mode end to end: outputs written with their columns, run.json with the resolved
// config, and a bad override reported before anything runs.

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "track_test_util.h"
#include "vehicle_node/standalone/standalone_run.h"

namespace trackcosim::vehicle {
namespace {

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(TrackStandalone, WritesVehicleShoesAndRunJson) {
  const auto out = std::filesystem::temp_directory_path() / "trackcosim_vehicle_standalone_test";
  std::filesystem::remove_all(out);
  StandaloneOptions o;
  o.config = test::shipped_config("excavator_thesis");
  o.out_dir = out;
  o.end_time = 0.1;
  o.output_interval = 0.05;
  o.ground_profile = GroundProfile::kBumpy;
  std::ostringstream progress;
  const RunSummary s = run_standalone(o, progress);
  EXPECT_EQ(s.steps, 100u);

  const std::string vehicle = read(out / "vehicle.csv");
  EXPECT_EQ(vehicle.rfind("t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz,sprocket_torque_left,sprocket_torque_right,", 0), 0u);
  EXPECT_NE(vehicle.find(",road_wheel_fz_right_4\n"), std::string::npos);
  EXPECT_EQ(std::count(vehicle.begin(), vehicle.end(), '\n'), 3);  // header + rows at 0.05 and 0.1 s

  const std::string shoes = read(out / "shoes.csv");
  EXPECT_EQ(shoes.rfind("t,shoe,side,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz,fx,fy,fz\n", 0), 0u);
  EXPECT_EQ(std::count(shoes.begin(), shoes.end(), '\n'), 1 + 2 * 2 * 46);

  const nlohmann::json run = nlohmann::json::parse(read(out / "run.json"));
  EXPECT_EQ(run["ground"]["profile"], "bumpy");
  EXPECT_EQ(run["simulation"]["end_time"], 0.1);
  EXPECT_EQ(run["vehicle"]["shoes_per_track"], 46);
  EXPECT_EQ(run["config"]["name"], "excavator_thesis");
  std::filesystem::remove_all(out);
}

TEST(TrackStandalone, OutputIntervalBelowTheStepIsRefused) {
  StandaloneOptions o;
  o.config = test::shipped_config("m113");
  o.out_dir = std::filesystem::temp_directory_path() / "trackcosim_vehicle_never_written";
  o.step = 1e-3;
  o.output_interval = 1e-4;
  std::ostringstream progress;
  EXPECT_THROW(run_standalone(o, progress), std::invalid_argument);
  EXPECT_FALSE(std::filesystem::exists(o.out_dir));
}

// A step count past 2^64 used to wrap to a run of 0 steps that exited as a success.
TEST(TrackStandalone, EndTimeOrStepThatAskForTooManyStepsAreRefused) {
  for (const auto [end_time, step] : {std::pair{1e300, 1e-3}, std::pair{1.0, 1e-300}}) {
    StandaloneOptions o;
    o.config = test::shipped_config("m113");
    o.out_dir = std::filesystem::temp_directory_path() / "trackcosim_vehicle_never_written";
    o.end_time = end_time;
    o.step = step;
    o.output_interval = 1e-3;
    std::ostringstream progress;
    try {
      run_standalone(o, progress);
      ADD_FAILURE() << "end time " << end_time << " at step " << step << " ran";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("more than 1e12 steps"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(std::filesystem::exists(o.out_dir));
  }
}

}  // namespace
}  // namespace trackcosim::vehicle
