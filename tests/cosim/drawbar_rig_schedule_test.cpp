// The drawbar rig's schedule and rig.csv (cosim/drawbar_rig.h): phases, ramped set-points per
// mode, the slope's gravity, and rig files refused by key.

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>

#include <gtest/gtest.h>

#include "cosim/drawbar_rig.h"
#include "io/config_error.h"

namespace trackcosim::cosim {
namespace {

RigSettings rig_from(const std::string& text) {
  const nlohmann::json doc = io::parse_json_document(text, "rig.json");
  return read_rig_settings(io::JsonField(doc, "rig.json"));
}

TEST(DrawbarRig, PhasesFollowRestRampSettleAndMeasure) {
  const RigSettings r = rig_from(R"({"mode": "slip", "slip": 0.25, "track_speed": 0.8,
                                     "rest_time": 0.2, "ramp_time": 0.4, "settle_time": 0.3})");
  EXPECT_DOUBLE_EQ(r.measure_from(), 0.9);
  EXPECT_EQ(rig_targets(r, 0.1).phase, RigPhase::kRest);
  EXPECT_EQ(rig_targets(r, 0.3).phase, RigPhase::kRamp);
  EXPECT_EQ(rig_targets(r, 0.7).phase, RigPhase::kSettle);
  EXPECT_EQ(rig_targets(r, 0.91).phase, RigPhase::kMeasure);
  // Slip mode: both speeds ramp together, the chassis at (1 - slip) of the track's.
  const RigTargets rest = rig_targets(r, 0.1), half = rig_targets(r, 0.4), full = rig_targets(r, 2.0);
  EXPECT_TRUE(rest.tracks_driven && rest.chassis_speed_held);
  EXPECT_EQ(rest.track_speed, 0.0);
  EXPECT_EQ(rest.chassis_speed, 0.0);
  EXPECT_NEAR(half.track_speed, 0.4, 1e-15);
  EXPECT_NEAR(half.chassis_speed, 0.3, 1e-15);
  EXPECT_DOUBLE_EQ(full.track_speed, 0.8);
  EXPECT_DOUBLE_EQ(full.chassis_speed, 0.6);
  EXPECT_EQ(full.pull, 0.0);
}

TEST(DrawbarRig, PullModeFreesTheChassisAfterRestAndTowedModeFreesTheTracks) {
  const RigSettings pull = rig_from(R"({"mode": "pull", "pull": 2000, "ramp_time": 1, "rest_time": 0})");
  EXPECT_FALSE(rig_targets(pull, 0.5).chassis_speed_held);
  EXPECT_DOUBLE_EQ(rig_targets(pull, 0.5).pull, 1000.0);
  EXPECT_DOUBLE_EQ(rig_targets(pull, 0.5).track_speed, 0.25);  // default track speed 0.5 m/s
  const RigSettings towed = rig_from(R"({"mode": "towed", "speed": 0.4, "ramp_time": 0})");
  const RigTargets t = rig_targets(towed, 0.3);
  EXPECT_FALSE(t.tracks_driven);
  EXPECT_TRUE(t.chassis_speed_held);
  EXPECT_DOUBLE_EQ(t.chassis_speed, 0.4);  // a ramp of zero length is a step
}

TEST(DrawbarRig, SlopeTiltsGravityKeepingItsLength) {
  const RigSettings r = rig_from(R"({"mode": "pull", "slope_deg": 30})");
  const Vec3 g = slope_gravity(r, {0, 0, -9.81});
  EXPECT_NEAR(g.x, -9.81 * 0.5, 1e-12);  // the ground rises along +x: gravity pulls back down it
  EXPECT_NEAR(g.z, -9.81 * std::sqrt(3.0) / 2, 1e-12);
  EXPECT_NEAR(track_slip(0.3, 0.4), 0.25, 1e-15);
  EXPECT_TRUE(std::isnan(track_slip(0.3, 0.0)));
}

TEST(DrawbarRig, BadRigFilesAreRefusedByKey) {
  const auto message = [](const std::string& text) {
    try {
      rig_from(text);
    } catch (const io::ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message(R"({"mode": "pull", "slip": 0.2})").find("slip: is not used in pull mode"), std::string::npos);
  EXPECT_NE(message(R"({"mode": "slip", "slip": 1.5})").find("slip in [-1, 1]"), std::string::npos);
  EXPECT_NE(message(R"({"mode": "drift"})").find("mode"), std::string::npos);
  EXPECT_NE(message(R"({"mode": "towed", "speed": -1})").find("speed"), std::string::npos);
  EXPECT_NE(message(R"({"mode": "slip", "slope_deg": 75})").find("slope_deg"), std::string::npos);
  EXPECT_NE(message(R"({"mode": "slip", "ramptime": 1})").find("ramptime"), std::string::npos);
  EXPECT_EQ(message(R"({"mode": "slip"})"), "accepted");
}

TEST(DrawbarRig, RigCsvHasItsHeaderAndOneRowPerWriteWithTheSlip) {
  const std::filesystem::path folder = std::filesystem::temp_directory_path() / "trackcosim_rig_csv_test";
  std::filesystem::create_directories(folder);
  {
    RigCsv csv(folder);
    RigRow row;
    row.t = 1.5;
    row.phase = RigPhase::kMeasure;
    row.chassis_vx = 0.3;
    row.track_speed = 0.4;
    row.drawbar_pull = 812.5;
    csv.write(row);  // flushed at once: a killed run keeps it
    std::ifstream in(folder / "rig.csv");
    std::string header, line;
    std::getline(in, header);
    std::getline(in, line);
    EXPECT_EQ(header, kRigCsvHeader);
    EXPECT_EQ(line.rfind("1.5,measure,0,0,0.3,0,", 0), 0u) << line;
    EXPECT_NE(line.find(",0.4,0.25"), std::string::npos) << line;  // track speed, slip 1 - 0.3 / 0.4
    EXPECT_NE(line.find(",812.5,"), std::string::npos) << line;
  }
  std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace trackcosim::cosim
