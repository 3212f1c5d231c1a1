// The M113-class vehicle (real masses) on rigid flat ground, issue 5 item 5. One 10 s run
// with the shipped driver (sprockets held for 1 s, ramped to 8 rad/s by 3 s) checks:
//  * static: over [0.5, 1] s the ground reaction sums to the weight M g within 1%;
//  * the bottom-span shoes stay at a constant height: every shoe carrying ground load has its
//    pin plane at the pad-sphere radius above the ground (flat pad on a flat plane) within 3 mm;
//  * the track never separates: the largest pin gap stays below 1 mm for all 10 s;
//  * driving on high-friction ground (mu = 1): mean speed over [5, 10] s equals sprocket speed
//    x pitch radius within 5%;
//  * the tensioner keeps the idler within its travel.

#include <cmath>

#include <gtest/gtest.h>

#include "track_test_util.h"

namespace trackcosim::vehicle {
namespace {

TEST(TrackFlatGround, M113SettlesCarriesItsWeightAndDrivesAtSprocketSpeed) {
  RunConfig config = load_run_config(test::shipped_config("m113"));
  config.vehicle.contact.ground_friction = 1.0;
  test::VehicleSim sim(config);
  const TrackedVehicle& v = sim.vehicle;
  MultibodySystem& system = sim.system;
  const double h = 1e-3;
  const double weight = config.vehicle.total_mass() * std::abs(config.vehicle.gravity.z);
  const double pad_radius = config.vehicle.track.shoes.pin_offset;
  const TensionerTemplate& ten = config.vehicle.track.idler.tensioner;

  double static_reaction = 0.0, max_pin_gap = 0.0, min_travel = 1e9, max_travel = -1e9, worst_height = 0.0;
  int static_samples = 0, loaded_shoe_samples = 0;
  double x_at_5 = 0.0;
  for (int k = 1; k <= 10000; ++k) {
    sim.step(h);
    const double t = system.time();
    max_pin_gap = std::max(max_pin_gap, test::largest_pin_gap(v, system));
    for (const Side s : kSides) {
      min_travel = std::min(min_travel, v.idler_travel(system, s));
      max_travel = std::max(max_travel, v.idler_travel(system, s));
    }
    if (t > 0.5 && t <= 1.0) {
      double sum = 0.0;
      for (const Side s : kSides)
        for (const BodyId shoe : v.track(s).shoes) sum += system.ground_contact_force(shoe).z;
      static_reaction += sum;
      ++static_samples;
    }
    if (t > 0.5 && k % 10 == 0) {
      // A shoe carrying a good share of its load lies flat on the plane.
      const double share = weight / (2.0 * 20.0);
      for (const Side s : kSides)
        for (const BodyId shoe : v.track(s).shoes)
          if (system.ground_contact_force(shoe).z > 0.25 * share) {
            worst_height = std::max(worst_height, std::abs(system.state(shoe).position.z - pad_radius));
            ++loaded_shoe_samples;
          }
    }
    if (k == 5000) x_at_5 = system.state(v.chassis()).position.x;
  }
  const double mean_reaction = static_reaction / static_samples;
  const double speed = (system.state(v.chassis()).position.x - x_at_5) / 5.0;
  const double expected = 8.0 * v.sprocket_pitch_radius();
  std::printf("static reaction %.1f N vs weight %.1f N (%.3f%%); largest pin gap %.3g m; loaded-shoe height error "
              "%.3g m over %d samples; speed %.4f m/s vs %.4f (%.2f%%); idler travel [%.4f, %.4f]\n",
              mean_reaction, weight, 100 * (mean_reaction / weight - 1), max_pin_gap, worst_height,
              loaded_shoe_samples, speed, expected, 100 * (speed / expected - 1), min_travel, max_travel);
  EXPECT_NEAR(mean_reaction / weight, 1.0, 0.01);
  EXPECT_GT(loaded_shoe_samples, 1000);
  EXPECT_LT(worst_height, 0.003);
  EXPECT_LT(max_pin_gap, 0.001);
  EXPECT_NEAR(speed / expected, 1.0, 0.05);
  EXPECT_GE(min_travel, ten.min_travel);
  EXPECT_LE(max_travel, ten.max_travel);
}

}  // namespace
}  // namespace trackcosim::vehicle
