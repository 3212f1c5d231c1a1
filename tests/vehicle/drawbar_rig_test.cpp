// The drawbar-pull rig (vehicle_node/rig/) on rigid ground, where the answers are known. The
// vehicle is the light robot with a toothed sprocket (12 teeth, the pin circle its config is
// sized for): its shipped friction drive slips on the track before the track slips on the
// ground, which would make these tests about the drive, not the rig.
//  - imposed slip 0.5 (the tracks slide): the rig measures what the ground pushes, mean drawbar
//    pull = mean ground traction within 0.5% (the chassis' speed is held, so nothing else can
//    take the difference), and no more than Coulomb friction allows, DBP / W <= mu;
//  - imposed pull P: over a steady window the ground's traction on the tracks is P within 0.5%
//    (the mean of a force on a body whose speed stays bounded), the tracks creep forward;
//  - on a 15 degree slope, free running (pull 0): the ground holds the weight's component down the
//    slope, W sin(a) within 2% (the rest is the vehicle's change of speed over the window), and the
//    sprockets' torques carry at least W sin(a) x pitch radius, plus rolling losses (< 30%);
//  - the gradeability on rigid ground is the friction angle (below).

#include <cmath>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "io/input_file.h"
#include "tests/vehicle/track_test_util.h"
#include "vehicle_node/rig/vehicle_rig.h"
#include "vehicle_node/standalone/vehicle_recorder.h"

namespace trackcosim::vehicle {
namespace {

cosim::RigSettings rig(const std::string& text) {
  const nlohmann::json doc = io::parse_json_document(text, "rig.json");
  return cosim::read_rig_settings(io::JsonField(doc, "rig.json"));
}

/// Means of the rig's rows over its measurement phase.
struct Measured {
  double drawbar_pull = 0, ground_fx = 0, chassis_vx = 0, slip = 0, torque = 0, weight = 0;
  int rows = 0;
};

/// The light robot on flat rigid ground under `settings`, stepped to `end` s at 1 ms, a row (the
/// means of its 10 steps) every 10 ms, as standalone mode records one every output interval.
RunConfig toothed_robot() {
  std::string text = io::read_input_file(test::shipped_config("ndia_light_robot"));
  // Pins on 0.06 / (2 sin 15 deg) = 0.11591 m: the loader checks the radius against the teeth.
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"\"teeth\": 0,", "\"teeth\": 12,"},
                                 {"\"radius\": 0.1084,", "\"radius\": 0.10588,"}}) {
    const std::size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
  }
  return parse_run_config(text, "ndia_light_robot (12 teeth)");
}

Measured run_rig(const cosim::RigSettings& settings, double end) {
  const RunConfig config = toothed_robot();
  const std::shared_ptr<const Ground> ground = make_ground(config.ground);
  MultibodySystem system;
  const TrackedVehicle vehicle(config.vehicle, system, *ground);
  system.set_ground(ground, config.vehicle.contact.ground_friction);
  VehicleRig r(settings, vehicle, system);
  Measured m;
  const double h = 1e-3;
  for (int k = 1; k <= static_cast<int>(std::lround(end / h)); ++k) {
    r.apply(system, system.time());
    vehicle.apply_travel_stops(system, h);
    system.step(h);
    r.accumulate(system, ground_forces(system, vehicle));
    if (k % 10 != 0) continue;
    const cosim::RigRow row = r.take_row(system);
    if (row.phase != cosim::RigPhase::kMeasure) continue;
    m.drawbar_pull += row.drawbar_pull;
    m.ground_fx += row.ground_fx;
    m.chassis_vx += row.chassis_vx;
    m.slip += cosim::track_slip(row.chassis_vx, row.track_speed);
    m.torque += row.sprocket_torque[0] + row.sprocket_torque[1];
    m.weight = row.weight;
    ++m.rows;
  }
  EXPECT_GT(m.rows, 10);
  for (double* v : {&m.drawbar_pull, &m.ground_fx, &m.chassis_vx, &m.slip, &m.torque}) *v /= m.rows;
  return m;
}

TEST(DrawbarRig, ImposedSlipMeasuresWhatTheGroundPushes) {
  const Measured m = run_rig(rig(R"({"mode": "slip", "slip": 0.5, "track_speed": 0.4,
                                     "rest_time": 0.2, "ramp_time": 0.3, "settle_time": 0.3})"), 1.8);
  const double mu = toothed_robot().vehicle.contact.ground_friction;
  EXPECT_NEAR(m.ground_fx, m.drawbar_pull, 0.005 * m.drawbar_pull) << "DBP " << m.drawbar_pull << " N";
  EXPECT_GT(m.drawbar_pull / m.weight, 0.5 * mu);  // sliding tracks pull hard...
  EXPECT_LE(m.drawbar_pull / m.weight, mu);        // ...but never beyond Coulomb friction
  EXPECT_NEAR(m.slip, 0.5, 1e-3);  // against the sprocket, whose speed row gives by its compliance
  EXPECT_NEAR(m.chassis_vx, 0.2, 1e-5);
}

TEST(DrawbarRig, ImposedPullIsWhatTheGroundPushesOverASteadyWindow) {
  const double pull = 1500;  // N, a third of the robot's weight: below mu W, the tracks grip
  const Measured m = run_rig(rig(R"({"mode": "pull", "pull": 1500, "track_speed": 0.4,
                                     "rest_time": 0.2, "ramp_time": 0.5, "settle_time": 1.0})"), 4.0);
  EXPECT_DOUBLE_EQ(m.drawbar_pull, pull);
  EXPECT_NEAR(m.ground_fx, pull, 0.005 * pull);
  EXPECT_GT(m.slip, 0.0);   // pulling, the tracks run ahead of the vehicle...
  EXPECT_LT(m.slip, 0.1);   // ...by a creep, not a spin
}

TEST(DrawbarRig, OnASlopeTheSprocketsHoldTheWeightDownTheSlope) {
  const double a = 15.0 * std::numbers::pi / 180;
  const Measured m = run_rig(rig(R"({"mode": "pull", "pull": 0, "track_speed": 0.3, "slope_deg": 15,
                                     "rest_time": 0.2, "ramp_time": 0.5, "settle_time": 0.8})"), 3.5);
  const RunConfig config = toothed_robot();
  MultibodySystem probe;
  const TrackedVehicle vehicle(config.vehicle, probe, FlatGround(0.0));
  const double expected = m.weight * std::sin(a) * vehicle.sprocket_pitch_radius();
  // The drive carries the slope's load and the running gear's rolling losses on top (19% here).
  EXPECT_GT(m.torque, expected) << "sprocket torques " << m.torque << " N m";
  EXPECT_LT(m.torque, 1.3 * expected) << "sprocket torques " << m.torque << " N m";
  EXPECT_NEAR(m.ground_fx, m.weight * std::sin(a), 0.02 * m.weight * std::sin(a));
  EXPECT_GT(m.chassis_vx, 0.25);  // it climbs
}

// Gradeability on rigid ground is the friction angle: free running, the tracks hold the vehicle up
// to tan(a) = mu (0.9: 42 degrees). It climbs 38 degrees (tan 0.78) and slides back down 46 (tan 1.04).
TEST(DrawbarRig, OnRigidGroundTheVehicleClimbsUpToTheFrictionAngle) {
  const double mu = toothed_robot().vehicle.contact.ground_friction;
  ASSERT_GT(mu, std::tan(38.0 * std::numbers::pi / 180));
  ASSERT_LT(mu, std::tan(46.0 * std::numbers::pi / 180));
  const char* phases = R"("rest_time": 0.2, "ramp_time": 0.3, "settle_time": 0.3})";
  const Measured climbs = run_rig(rig(std::string(R"({"mode": "pull", "track_speed": 0.3, "slope_deg": 38, )") + phases), 1.4);
  const Measured slides = run_rig(rig(std::string(R"({"mode": "pull", "track_speed": 0.3, "slope_deg": 46, )") + phases), 1.4);
  EXPECT_GT(climbs.chassis_vx, 0.05) << "slip " << climbs.slip;
  EXPECT_LT(slides.chassis_vx, 0.0) << "slip " << slides.slip;
}

}  // namespace
}  // namespace trackcosim::vehicle
