// A heavy load on a small gravel bed (issue 15's ctest case; bench/loaded_bed is the full study):
// 2,500 grains of 25 mm gravel (21 g) settled in a 0.45 m box, an 18 kg plate the size of an
// M113 shoe on top, pressed with 10 kN (171 kPa) ramped over 50 ms and held for 150 ms.
//
// With rolling resistance mu_r = 0.5 (docs/ccp.md) the bed carries the load: the plate stops
// within a few centimetres, no grain is thrown (all slower than 5 m/s), and the floor carries
// the load, the plate and the bed (frictionless walls take none of it) within 2%. The same bed
// of smooth spheres (mu_r = 0) cannot: spheres roll past each other, the plate punches through
// and is still sinking at the end. Both at APGD, 150 iterations, h = 1 ms.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "bench/loaded_bed/loaded_bed_case.h"

namespace trackcosim::bench {
namespace {

struct Loaded {
  LoadedBedSpec spec;
  gpu::BodySet bodies;
};

const Loaded& loaded_bed() {
  static const Loaded bed = [] {
    Loaded out;
    out.spec.grains = 2500;
    out.spec.box_x = out.spec.box_y = 0.45;
    gpu::StepSettings settle_settings;
    settle_settings.collision.envelope = 0.05 * out.spec.radius;
    settle_settings.solver.max_iterations = 50;
    settle_settings.solver.max_recovery_speed = 0.5;
    out.bodies = with_plate(settle(loose_bed(out.spec), settle_settings, 0.01, 1.0), out.spec);
    return out;
  }();
  return bed;
}

LoadResult press(real rolling_friction) {
  const Loaded& bed = loaded_bed();
  LoadCase c;
  c.load_newton = 10000;
  c.ramp_time = 0.05;
  c.hold_time = 0.15;
  c.settings.collision.envelope = 0.05 * bed.spec.radius;
  c.settings.solver.max_iterations = 150;
  c.settings.solver.max_recovery_speed = 0.5;
  c.settings.solver.rolling_friction = rolling_friction;
  return run_load_case(bed.bodies, bed.spec, c, 0.05);
}

// The sinkage that counts as holding the load: a few grain diameters, well inside the bed.
constexpr double kHeldSinkage = 0.06;

TEST(LoadedBed, RollingResistanceCarriesTenKilonewtonsOnAShoeSizedPlate) {
  const LoadResult r = press(0.5);
  std::printf("mu_r 0.5: sinkage %.4f m (drift %.2e m between the halves of the last 50 ms), fastest grain %.2f m/s, floor %.1f N of %.1f N\n",
              r.mean_sinkage, r.sinkage_drift, r.max_grain_speed, r.mean_floor_force, r.expected_floor_force);
  EXPECT_FALSE(r.plate_lost);
  EXPECT_GT(r.mean_sinkage, 0.0);
  EXPECT_LT(r.mean_sinkage, kHeldSinkage);
  EXPECT_LT(std::abs(r.sinkage_drift), 5e-4);     // steady: under 0.5 mm between the window's halves
  EXPECT_LT(r.max_grain_speed, 5.0);              // no grain thrown, ramp included
  EXPECT_NEAR(r.mean_floor_force, r.expected_floor_force, 0.02 * r.expected_floor_force);
}

TEST(LoadedBed, SmoothSpheresLetThePlatePunchThrough) {
  const LoadResult smooth = press(0);
  std::printf("mu_r 0: sinkage %.4f m (drift %.2e m), fastest grain %.2f m/s\n", smooth.mean_sinkage,
              smooth.sinkage_drift, smooth.max_grain_speed);
  EXPECT_GT(smooth.mean_sinkage, 2 * kHeldSinkage);
  EXPECT_GT(smooth.sinkage_drift, 1e-3);  // still sinking
}

}  // namespace
}  // namespace trackcosim::bench
