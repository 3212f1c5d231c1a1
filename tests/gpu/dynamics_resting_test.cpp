// Bodies at rest: a sphere and a compound block settling on a plane, and a column of spheres in
// a square tube. Resting contact is where a CCP solver shows its faults: a wrong sign in the
// stabilisation term sinks or launches the body, an unconverged friction creeps it sideways.
//
// Penetration tolerance, 1e-6 m for r = 0.1 m and h = 1e-3 s: one tenth of g h^2 = 9.8e-6 m,
// the distance gravity alone moves a body in one step. With b = Phi / h the solved contact
// satisfies Phi + h v_n >= 0, so at convergence nothing penetrates; a solver that left a tenth of
// one step's gravity unanswered would already fail here.

#include <gtest/gtest.h>

#include <cmath>

#include "tests/gpu/dynamics_test_scenes.h"

namespace trackcosim::gpu::test {
namespace {

constexpr real kPenetrationTolerance = 1e-6;
constexpr GlobalId kFloorGid = 1;

struct RestingRun {
  real max_penetration = 0;  ///< over every step, as StepStats reports it (before the solve)
  BodyState first, last;
  Vec3 floor_impulse{0, 0, 0};  ///< in the last step
};

/// Steps a scene whose body `b` starts just above the floor; every step counts towards the
/// penetration, the landing included.
RestingRun run_resting(const BodySet& scene, std::uint32_t b, SolverMethod method, int steps) {
  RigidBodySystem system(scene, settings_for(method, 0.005));
  RestingRun run;
  run.first = system.body_state(b);
  for (int k = 0; k < steps; ++k) {
    system.step();
    run.max_penetration = std::max(run.max_penetration, system.last_stats().max_penetration);
  }
  run.last = system.body_state(b);
  run.floor_impulse = impulse_given_by(system.contact_impulses(), kFloorGid);
  return run;
}

class RestingOnPlane : public ::testing::TestWithParam<SolverMethod> {};

// A sphere (r = 0.1 m, m = 1 kg, mu = 0.5) released 1 mm above the floor, 2000 steps (2 s):
//   penetration < kPenetrationTolerance at every step, final height r to that tolerance;
//   no drift: x, y unchanged to 1e-9 m (no tangential load exists, so friction must give
//   zero, not a small random impulse), |v| < 1e-6 m/s (1e-4 of the g h gravity adds per step),
//   |w| < 1e-7 rad/s (surface speed 1e-8 m/s: the solver's resting leftover; the positions
//   are the drift check);
//   statics: the floor's impulse in the last step is m g h (1e-6 relative), vertical only.
TEST_P(RestingOnPlane, SphereSettlesWithoutPenetrationOrDrift) {
  const real r = 0.1, m = 1.0, h = 1e-3;
  BodySet scene;
  add_floor(scene, kFloorGid, 0.5);
  const std::uint32_t b = add_sphere_body(scene, 2, {0.3, -0.2, r + 1e-3}, r, m, 0.5);
  const RestingRun run = run_resting(scene, b, GetParam(), 2000);

  EXPECT_LT(run.max_penetration, kPenetrationTolerance);
  EXPECT_NEAR(run.last.position.z, r, kPenetrationTolerance);
  EXPECT_NEAR(run.last.position.x, run.first.position.x, 1e-9);
  EXPECT_NEAR(run.last.position.y, run.first.position.y, 1e-9);
  EXPECT_LT(length(run.last.velocity), 1e-6);
  EXPECT_LT(length(run.last.angular_velocity), 1e-7);
  EXPECT_NEAR(run.floor_impulse.z, m * kG * h, 1e-6 * m * kG * h);
  EXPECT_NEAR(run.floor_impulse.x, 0, 1e-12);
  EXPECT_NEAR(run.floor_impulse.y, 0, 1e-12);
}

// A compound block of 3 x 3 x 2 spheres (r = 0.05 m: a 0.3 x 0.3 x 0.2 m box, m = 2 kg)
// released 1 mm above the floor, 2000 steps; the default cap of 8 contacts per body pair keeps
// 8 of its 9 floor contacts. Same checks as the sphere, plus the orientation unchanged to 1e-9
// (no tilt: a level block on a level floor has no reason to rock); |w| < 1e-7 rad/s as for the
// sphere (corner speed 2e-8 m/s). The support is statically
// indeterminate (8 contacts, 3 equations), so the floor impulse is checked as a total.
TEST_P(RestingOnPlane, CompoundBlockSettlesWithoutPenetrationOrDrift) {
  const real r = 0.05, m = 2.0, h = 1e-3;
  BodySet scene;
  add_floor(scene, kFloorGid, 0.5);
  const std::uint32_t b = add_sphere_block(scene, 2, {-0.4, 0.7, 2 * r + 1e-3}, 3, 3, 2, r, m, 0.5);
  const RestingRun run = run_resting(scene, b, GetParam(), 2000);

  EXPECT_LT(run.max_penetration, kPenetrationTolerance);
  EXPECT_NEAR(run.last.position.z, 2 * r, kPenetrationTolerance);
  EXPECT_NEAR(run.last.position.x, run.first.position.x, 1e-9);
  EXPECT_NEAR(run.last.position.y, run.first.position.y, 1e-9);
  EXPECT_LT(length(run.last.velocity), 1e-6);
  EXPECT_LT(length(run.last.angular_velocity), 1e-7);
  const Quat q = run.last.orientation;
  EXPECT_NEAR(q.w, 1, 1e-9);
  EXPECT_LT(std::fabs(q.x) + std::fabs(q.y) + std::fabs(q.z), 1e-9);
  EXPECT_NEAR(run.floor_impulse.z, m * kG * h, 1e-6 * m * kG * h);
}

INSTANTIATE_TEST_SUITE_P(Methods, RestingOnPlane, kBothMethods, method_name);

class ColumnInTube : public ::testing::TestWithParam<SolverMethod> {};

// Ten spheres (r = 0.05 m, m = 1 kg, mu = 0.5) stacked in a square tube of four frictional
// walls (mu = 0.5) 1.05 r from the axis, each centre jittered by up to 0.04 r sideways, so the
// column leans on the walls in a zigzag of oblique contacts rather than standing as a trivial
// vertical chain. 1000 steps to settle from small gaps (1e-3 r between spheres), then 1000 steps
// more during which:
//   max |v| over every sphere and step < 1e-3 m/s (the bound; a tenth of g h would be
//   the velocity of a body that lost its support for one step);
//   every position drifts < 1e-5 m (1e-4 r) between step 1000 and step 2000.
TEST_P(ColumnInTube, SettledColumnStaysAtRest) {
  const real r = 0.05, m = 1.0, half = 1.05 * r;
  BodySet scene;
  add_floor(scene, kFloorGid, 0.5);
  add_side_walls(scene, 2, 0.5, half, half);
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<real> jitter(-0.04 * r, 0.04 * r);
  for (int i = 0; i < 10; ++i)
    add_sphere_body(scene, 10 + i, {jitter(rng), jitter(rng), r + i * 2 * r * 1.001}, r, m, 0.5);
  RigidBodySystem system(scene, deep_stack_settings_for(GetParam(), 0.1 * r));
  step_n(system, 1000);

  const std::vector<BodyState> settled = system.body_states();
  real worst_speed = 0;
  for (int k = 0; k < 1000; ++k) {
    system.step();
    worst_speed = std::max(worst_speed, max_speed(system.body_states()));
  }
  const std::vector<BodyState> end = system.body_states();
  EXPECT_LT(worst_speed, 1e-3);
  EXPECT_LT(max_displacement(settled, end), 1e-5);
  // Sanity: the column is standing (top sphere near 19 r) and inside the tube.
  EXPECT_GT(end.back().position.z, 18.5 * r);
  for (std::size_t i = 2; i < end.size(); ++i) {
    EXPECT_LE(std::fabs(end[i].position.x), half - r + kPenetrationTolerance);
    EXPECT_LE(std::fabs(end[i].position.y), half - r + kPenetrationTolerance);
  }
}

INSTANTIATE_TEST_SUITE_P(Methods, ColumnInTube, kBothMethods, method_name);

}  // namespace
}  // namespace trackcosim::gpu::test
