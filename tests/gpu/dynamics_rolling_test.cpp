// Rolling resistance (SolverSettings::rolling_friction, docs/ccp.md): a sphere on an incline.
// Coulomb friction alone cannot hold a sphere on any slope: it rolls down at a = 5/7 g sin(theta).
// A rolling torque of at most mu_r R* N (R* = r on a plane, N = m g cos(theta)) holds it while
// tan(theta) <= mu_r, and otherwise lets it roll without slipping at
//   a = g (sin(theta) - mu_r cos(theta)) / (1 + I / (m r^2)) = 5/7 g (sin(theta) - mu_r cos(theta)).
// The incline is made by tilting gravity (as in dynamics_incline_test.cpp): down the slope is +x.
// Sphere: r = 0.05 m, m = 1 kg, mu = 0.8 (enough to roll without slipping in every case here).

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "tests/gpu/dynamics_test_scenes.h"

namespace trackcosim::gpu::test {
namespace {

constexpr real kRadius = 0.05, kMass = 1.0, kMu = 0.8;

struct Rolled {
  real distance;  ///< along the slope after the run
  real spin;      ///< angular velocity about y at the end
};

Rolled roll(SolverMethod method, real theta_degrees, real rolling_friction, int steps) {
  const real theta = theta_degrees * kPi / 180;
  BodySet scene;
  add_floor(scene, 1, kMu);
  const std::uint32_t b = add_sphere_body(scene, 2, {0, 0, kRadius}, kRadius, kMass, kMu);
  StepSettings settings = settings_for(method, 0.005);
  settings.gravity = {kG * std::sin(theta), 0, -kG * std::cos(theta)};
  settings.solver.rolling_friction = rolling_friction;
  RigidBodySystem system(scene, settings);
  for (int k = 0; k < steps; ++k) system.step();
  const BodyState s = system.body_state(b);
  return {s.position.x, s.angular_velocity.y};
}

class RollingResistance : public ::testing::TestWithParam<SolverMethod> {};

// 10 degrees (tan = 0.176) with mu_r = 0.3: held, not a micron in 0.5 s.
TEST_P(RollingResistance, HoldsASphereWhileTanThetaIsBelowMuR) {
  const Rolled r = roll(GetParam(), 10, 0.3, 500);
  EXPECT_LT(std::fabs(r.distance), 1e-6);
  EXPECT_LT(std::fabs(r.spin), 1e-4);
}

// 10 degrees with mu_r = 0.1: rolls at 5/7 g (sin - 0.1 cos) = 0.527 m/s^2, 65.8 mm in 0.5 s
// (semi-implicit Euler adds a/2 h t: 0.13 mm). Without the rows: 5/7 g sin = 1.217 m/s^2.
TEST_P(RollingResistance, LetsItRollSlowerAboveTheLimit) {
  const real theta = 10 * kPi / 180, t = 0.5;
  const real a = 5.0 / 7.0 * kG * (std::sin(theta) - 0.1 * std::cos(theta));
  const Rolled r = roll(GetParam(), 10, 0.1, 500);
  EXPECT_NEAR(r.distance, a * t * t / 2, 0.01 * a * t * t / 2);
  EXPECT_NEAR(r.spin, a * t / kRadius, 0.01 * a * t / kRadius);  // rolling without slipping
  const real free = 5.0 / 7.0 * kG * std::sin(theta);
  EXPECT_NEAR(roll(GetParam(), 10, 0, 500).distance, free * t * t / 2, 0.01 * free * t * t / 2);
}

INSTANTIATE_TEST_SUITE_P(Methods, RollingResistance, kBothMethods, method_name);

// With rolling_friction = 0 no rows are added: the same bits as a scene that never heard of it
// (every other test of the suite runs that path), and a negative value is refused.
TEST(RollingResistanceSettings, RefusesNegativeOrNonFiniteValues) {
  BodySet scene;
  add_floor(scene, 1, kMu);
  add_sphere_body(scene, 2, {0, 0, kRadius}, kRadius, kMass, kMu);
  StepSettings s = settings_for(SolverMethod::Apgd, 0.005);
  s.solver.rolling_friction = -0.1;
  EXPECT_THROW(RigidBodySystem(scene, s), std::invalid_argument);
  s.solver.rolling_friction = std::nan("");
  EXPECT_THROW(RigidBodySystem(scene, s), std::invalid_argument);
}

}  // namespace
}  // namespace trackcosim::gpu::test
