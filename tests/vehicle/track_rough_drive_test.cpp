// Driving 10 s over the bumpy rigid field (the config's seeded random field) without the track
// coming off, issue 5 item 5, for the M113-class vehicle with real masses and the NDIA light
// robot. "Off" means either of:
//  * a shoe more than half the wheel gap sideways from its track plane (the guide horn would
//    have left the groove between the double wheels), or
//  * a pin gap above 1 cm (the chain has torn open).
// The run must also not diverge and must make headway (> 50% of sprocket speed x pitch radius).

#include <cmath>

#include <gtest/gtest.h>

#include "track_test_util.h"

namespace trackcosim::vehicle {
namespace {

void drive_over_bumps(const std::string& name) {
  RunConfig config = load_run_config(test::shipped_config(name));
  config.ground.profile = GroundProfile::kBumpy;
  test::VehicleSim sim(config);
  const double h = 1e-3;
  double max_gap = 0.0, max_lateral = 0.0;
  const double x0 = sim.system.state(sim.vehicle.chassis()).position.x;
  for (int k = 1; k <= 10000; ++k) {
    sim.step(h);
    max_gap = std::max(max_gap, test::largest_pin_gap(sim.vehicle, sim.system));
    max_lateral = std::max(max_lateral, test::largest_lateral_offset(sim.vehicle, sim.system));
    ASSERT_TRUE(std::isfinite(sim.system.state(sim.vehicle.chassis()).position.z)) << "diverged at step " << k;
  }
  const double distance = sim.system.state(sim.vehicle.chassis()).position.x - x0;
  // Ideal distance: the driver's speed profile integrated, times the pitch radius.
  double ideal = 0.0;
  for (int k = 0; k < 10000; ++k) ideal += config.driver.profile[0](k * h) * h;
  ideal *= sim.vehicle.sprocket_pitch_radius();
  const double allowed_lateral = 0.5 * config.vehicle.track.road_wheels.wheel.gap;
  std::printf("%s over bumps: largest pin gap %.3g m, largest lateral shoe offset %.3g m (allowed %.3g), distance "
              "%.2f m of %.2f ideal\n",
              name.c_str(), max_gap, max_lateral, allowed_lateral, distance, ideal);
  EXPECT_LT(max_gap, 0.01);
  EXPECT_LT(max_lateral, allowed_lateral);
  EXPECT_GT(distance, 0.5 * ideal);
}

TEST(TrackRoughDrive, M113WithRealMassesKeepsItsTracksOver10sOfBumps) { drive_over_bumps("m113"); }

// The light robot (0.34 kg shoes) needs the contact compliance floor relative to the effective
// mass (SolverSettings::relative_compliance_floor, vehicle_node/mbd/REQUESTS.md "Report 4").
TEST(TrackRoughDrive, LightRobotKeepsItsTracksOver10sOfBumps) { drive_over_bumps("ndia_light_robot"); }

}  // namespace
}  // namespace trackcosim::vehicle
