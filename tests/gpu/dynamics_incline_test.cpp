// A compound block on an incline: Coulomb friction must hold it when tan(theta) < mu and let it
// slide with a = g (sin(theta) - mu cos(theta)) when tan(theta) > mu.
//
// The incline is made by tilting gravity, not the plane: the floor stays z = 0 and gravity
// becomes g (sin(theta), 0, -cos(theta)), so "down the slope" is +x. That is the same problem
// in a rotated frame and keeps the block axis-aligned with its contacts on one plane.
// The block is 3 x 3 x 2 spheres of r = 0.05 m (0.3 x 0.3 x 0.2 m, m = 2 kg), mu = 0.5 on
// both sides; it cannot tip below tan(theta) = 0.3 / 0.2 = 1.5.

#include <gtest/gtest.h>

#include <cmath>

#include "tests/gpu/dynamics_test_scenes.h"

namespace trackcosim::gpu::test {
namespace {

constexpr real kMu = 0.5, kRadius = 0.05, kMass = 2.0;

struct InclineRun {
  std::vector<BodyState> states;  ///< the block after every step: [k] is after step k + 1
};

InclineRun slide(SolverMethod method, real theta_degrees, int steps) {
  const real theta = theta_degrees * kPi / 180;
  BodySet scene;
  add_floor(scene, 1, kMu);
  // Touching the floor exactly (bottom sphere centres at z = r), at rest.
  const std::uint32_t b = add_sphere_block(scene, 2, {0, 0, 2 * kRadius}, 3, 3, 2, kRadius, kMass, kMu);
  StepSettings settings = settings_for(method, 0.005);
  settings.gravity = {kG * std::sin(theta), 0, -kG * std::cos(theta)};
  RigidBodySystem system(scene, settings);
  InclineRun run;
  for (int k = 0; k < steps; ++k) {
    system.step();
    run.states.push_back(system.body_state(b));
  }
  return run;
}

class Incline : public ::testing::TestWithParam<SolverMethod> {};

// theta = 20 deg: tan = 0.364 < mu. Over 1 s the block moves < 1e-6 m along the slope and
// across it (the bound; gravity alone would move it 0.5 g sin(theta) t^2 = 1.7 m).
TEST_P(Incline, SticksWhenTanThetaIsBelowMu) {
  const InclineRun run = slide(GetParam(), 20, 1000);
  const Vec3 start{0, 0, 2 * kRadius};
  const BodyState& end = run.states.back();
  EXPECT_LT(std::fabs(end.position.x - start.x), 1e-6) << "slid along the slope";
  EXPECT_LT(std::fabs(end.position.y - start.y), 1e-6) << "slid across the slope";
  EXPECT_LT(length(end.velocity), 1e-5);
}

// theta = 35 deg: tan = 0.700 > mu. Expected a = g (sin - mu cos) = 1.609 m/s^2, measured as
// (v_x(1.0 s) - v_x(0.2 s)) / 0.8 s, after the contact has settled in. Within 10% (the issue's
// bound). The block must neither sink nor lift out of its contacts: the CCP's convex relaxation
// lets a sliding contact open by mu |v_t| h per step (Anitescu's cone: v_n = mu |v_t| - Phi / h),
// 0.8 mm at the final 1.6 m/s, so the height is checked against that bound plus 1e-5 m.
TEST_P(Incline, SlidesWithCoulombAccelerationWhenTanThetaIsAboveMu) {
  const real theta = 35 * kPi / 180, h = 1e-3;
  const InclineRun run = slide(GetParam(), 35, 1000);
  const real expected = kG * (std::sin(theta) - kMu * std::cos(theta));
  const real measured = (run.states[999].velocity.x - run.states[199].velocity.x) / 0.8;
  EXPECT_NEAR(measured, expected, 0.1 * expected) << "a = g (sin - mu cos) = " << expected;
  real sink = 0, lift = -1;  // lift: height above the relaxation bound, worst over the run
  for (const BodyState& s : run.states) {
    sink = std::max(sink, 2 * kRadius - s.position.z);
    lift = std::max(lift, s.position.z - (2 * kRadius + kMu * std::fabs(s.velocity.x) * h));
  }
  EXPECT_LT(sink, 1e-5) << "sank into the slope";
  EXPECT_LT(lift, 1e-5) << "lifted off the slope beyond mu |v_t| h";
  // No reason to move across the slope: < 1e-6 m, the sticking bound, over 0.8 m of sliding.
  EXPECT_LT(std::fabs(run.states.back().position.y), 1e-6) << "moved across the slope";
}

INSTANTIATE_TEST_SUITE_P(Methods, Incline, kBothMethods, method_name);

}  // namespace
}  // namespace trackcosim::gpu::test
