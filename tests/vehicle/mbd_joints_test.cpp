// Revolute and prismatic joints against analytic answers.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <vector>

#include "tests/vehicle/mbd_test_util.h"

namespace trackcosim::vehicle {
namespace {

using test::body;
using test::fixed_body;
using test::kG;
using test::kPi;

struct Pendulum {
  MultibodySystem sys;
  BodyId bob;
  JointId hinge;
  double mass = 2.0, length = 1.0, icm = 0.01;  // bob: I about the hinge axis at its centre
};

// Compound pendulum hanging from a fixed pivot at the origin, hinge axis Y, released from rest
// at angle theta0 (bob at (L sin th, 0, -L cos th)).
void build(Pendulum& p, double theta0) {
  const BodyId pivot = p.sys.add_body(fixed_body("pivot"));
  BodyDesc d = body("bob", p.mass, {p.icm, p.icm, p.icm}, {p.length * std::sin(theta0), 0, -p.length * std::cos(theta0)});
  p.bob = p.sys.add_body(d);
  p.hinge = p.sys.add_revolute(pivot, p.bob, {0, 0, 0}, {0, 1, 0});
}

double energy(const Pendulum& p) {
  const BodyState s = p.sys.state(p.bob);
  return 0.5 * p.mass * dot(s.velocity, s.velocity) + 0.5 * p.icm * dot(s.angular_velocity, s.angular_velocity) +
         p.mass * kG * s.position.z;
}

// Small-angle period T = 2 pi sqrt(I_pivot / (m g L)), I_pivot = I_cm + m L^2; within 2 %.
TEST(MbdJoints, PendulumPeriodMatchesSmallAngleFormula) {
  Pendulum p;
  build(p, 0.05);
  const double h = 1e-3;
  const double expected = 2 * kPi * std::sqrt((p.icm + p.mass * p.length * p.length) / (p.mass * kG * p.length));
  std::vector<double> crossings;  // times x changes sign from + to -
  double x_prev = p.sys.state(p.bob).position.x, worst = 0.0;
  while (p.sys.time() < 10.0) {
    p.sys.step(h);
    const double x = p.sys.state(p.bob).position.x;
    if (x_prev > 0 && x <= 0) crossings.push_back(p.sys.time() - h * x / (x - x_prev));
    x_prev = x;
    worst = std::max(worst, p.sys.max_joint_violation());
  }
  ASSERT_GE(crossings.size(), 4u);
  const double period = (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
  EXPECT_NEAR(period, expected, 0.02 * expected);
  EXPECT_LT(worst, 1e-6);
}

// Energy E = m v^2/2 + I w^2/2 + m g z over 10 s at theta0 = 1 rad. The velocity rows use the
// Jacobian at the start of the step, so each step removes the radial velocity the rotation
// of the bob's path creates, v_r = h v^2 / L: a dissipation of at most m (h v_max^2 / L)^2 / 2
// per step (v_max^2 = 2 g L (1 - cos theta0)); energy never grows. The hinge keeps the bob
// on its circle to < 1e-6 m (post-stabilization).
TEST(MbdJoints, PendulumEnergyAndJointDriftBounded) {
  Pendulum p;
  build(p, 1.0);
  const double h = 1e-3, e0 = energy(p), swing = p.mass * kG * p.length * (1 - std::cos(1.0));
  const double v2 = 2 * kG * p.length * (1 - std::cos(1.0));
  const double loss_per_step = 0.5 * p.mass * std::pow(h * v2 / p.length, 2);
  double gain = 0.0, worst_v = 0.0;
  int steps = 0;
  while (p.sys.time() < 10.0) {
    p.sys.step(h);
    ++steps;
    gain = std::max(gain, energy(p) - e0);
    worst_v = std::max(worst_v, p.sys.max_joint_violation());
  }
  const double loss = e0 - energy(p);
  std::printf("pendulum 1 rad, 10 s: energy loss %.4g J (bound %.4g J, swing %.4g J), max gain %.3g J\n", loss,
              steps * loss_per_step, swing, gain);
  EXPECT_LT(gain, 1e-3 * swing);
  EXPECT_LT(loss, steps * loss_per_step);
  EXPECT_LT(worst_v, 1e-6);
  // The bob stays in the plane normal to the hinge axis.
  EXPECT_NEAR(p.sys.state(p.bob).position.y, 0.0, 1e-9);
}

// At 0.3 rad the same bound is below 1 % of the swing energy.
TEST(MbdJoints, PendulumEnergyWithinOnePercentAtModerateAngle) {
  Pendulum p;
  build(p, 0.3);
  const double e0 = energy(p), swing = p.mass * kG * p.length * (1 - std::cos(0.3));
  double worst = 0.0;
  while (p.sys.time() < 10.0) {
    p.sys.step(1e-3);
    worst = std::max(worst, std::abs(energy(p) - e0));
  }
  EXPECT_LT(worst, 0.01 * swing);
}

// Slider on the axis n = (1, 0, 1)/sqrt 2 under gravity, a sideways force and a torque: it
// moves along n with s = (g . n) t^2 / 2, stays on the axis and does not turn.
TEST(MbdJoints, PrismaticKeepsMotionOnItsAxis) {
  MultibodySystem sys;
  const BodyId ground = sys.add_body(fixed_body("frame"));
  const BodyId slider = sys.add_body(body("slider", 3.0, {0.2, 0.3, 0.4}, {0.5, 0.2, 0.1}));
  const Vec3 n{1 / std::sqrt(2.0), 0, 1 / std::sqrt(2.0)};
  const JointId j = sys.add_prismatic(ground, slider, {0.5, 0.2, 0.1}, n);
  sys.set_external_force(slider, {0, 25.0, 0}, {3.0, -2.0, 1.0});
  double worst = 0.0;
  for (int i = 0; i < 1000; ++i) {
    sys.step(1e-3);
    worst = std::max(worst, sys.max_joint_violation());
  }
  const double t = sys.time(), a = -kG * n.z;
  // Semi-implicit Euler: s_n = a h^2 n (n + 1) / 2 = a t^2 / 2 + a h t / 2.
  EXPECT_NEAR(sys.prismatic_displacement(j), 0.5 * a * t * t, std::abs(0.5 * a * 1e-3 * t) + 1e-6);
  EXPECT_LT(worst, 1e-6);
  const BodyState s = sys.state(slider);
  EXPECT_NEAR(s.position.y, 0.2, 1e-6);
  EXPECT_NEAR(std::abs(s.orientation.w), 1.0, 1e-9);
  EXPECT_LT(length(s.angular_velocity), 1e-6);
  // The joint carries the side force: reaction on the slider = -(25 N along Y).
  EXPECT_NEAR(sys.joint_force(j, slider).y, -25.0, 1e-3);
}

// A 40 kg slider on a vertical prismatic falls onto its end stop at -0.2 m and rests there:
// travel = -0.2 m (to the contact compliance), the stop carries m g.
TEST(MbdJoints, PrismaticLimitStopsTravel) {
  MultibodySystem sys;
  const BodyId frame = sys.add_body(fixed_body("frame"));
  const BodyId carrier = sys.add_body(body("idler carrier", 40.0, {1, 1, 1}, {0, 0, 0}));
  const JointId j = sys.add_prismatic(frame, carrier, {0, 0, 0}, {0, 0, 1});
  sys.set_prismatic_limits(j, -0.2, 0.1);
  double lowest = 0.0;
  for (int i = 0; i < 1000; ++i) {
    sys.step(1e-3);
    lowest = std::min(lowest, sys.prismatic_displacement(j));
  }
  EXPECT_NEAR(sys.prismatic_displacement(j), -0.2, 1e-6);
  EXPECT_GT(lowest, -0.2 - 1e-4);
  EXPECT_NEAR(sys.joint_force(j, carrier).z, 0.0, 1e-6);  // the 5 joint rows carry nothing vertical
  EXPECT_LT(sys.joint_violation(j), 1e-9);
}

}  // namespace
}  // namespace trackcosim::vehicle
