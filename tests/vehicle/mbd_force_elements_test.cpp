// Spring-damper and rotational motor against analytic answers.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "tests/vehicle/mbd_test_util.h"

namespace trackcosim::vehicle {
namespace {

using test::body;
using test::fixed_body;
using test::kG;

// A 50 kg body on a vertical slider, held up by a spring-damper from a fixed base:
// equilibrium preload + k (rest - L) = m g  =>  L = rest + (preload - m g) / k.
TEST(MbdForceElements, SpringWithPreloadReachesStaticDeflection) {
  MultibodySystem sys;
  const double m = 50.0, k = 2e4, c = 2.0 * std::sqrt(k * m), rest = 0.5, preload = 200.0;
  const BodyId base = sys.add_body(fixed_body("base"));
  const BodyId mass = sys.add_body(body("mass", m, {1, 1, 1}, {0, 0, rest}));
  const JointId slide = sys.add_prismatic(base, mass, {0, 0, rest}, {0, 0, 1});
  const ForceElementId s = sys.add_spring_damper(base, mass, {0, 0, 0}, {0, 0, rest}, k, c, rest, preload);
  for (int i = 0; i < 3000; ++i) sys.step(1e-3);
  const double expected = rest + (preload - m * kG) / k;
  EXPECT_NEAR(sys.spring_length(s), expected, 1e-6);
  EXPECT_NEAR(sys.state(mass).position.z, expected, 1e-6);
  EXPECT_NEAR(sys.prismatic_displacement(slide), expected - rest, 1e-6);
  EXPECT_NEAR(sys.spring_force(s), m * kG, 1e-3);
}

struct Rotor {
  MultibodySystem sys;
  BodyId wheel;
  JointId axle;
  MotorId motor;
  double inertia = 2.0;  // about the axle (Y)
};

void build(Rotor& r) {
  const BodyId frame = r.sys.add_body(fixed_body("frame"));
  r.wheel = r.sys.add_body(body("sprocket", 30.0, {1.0, r.inertia, 1.0}, {0, 0, 1}));
  r.axle = r.sys.add_revolute(frame, r.wheel, {0, 0, 1}, {0, 1, 0});
  r.motor = r.sys.add_rotational_motor(r.axle);
}

// Speed control against a load torque T_load = 40 N m (applied as -40 about +Y on the
// wheel): the wheel reaches the commanded 10 rad/s and the motor reports torque = T_load.
TEST(MbdForceElements, SpeedMotorReachesSpeedAndReportsLoadTorque) {
  Rotor r;
  build(r);
  r.sys.set_external_force(r.wheel, {0, 0, 0}, {0, -40.0, 0});
  r.sys.set_motor_speed(r.motor, 10.0);
  for (int i = 0; i < 200; ++i) r.sys.step(1e-3);
  EXPECT_NEAR(r.sys.revolute_speed(r.axle), 10.0, 1e-6);
  EXPECT_NEAR(r.sys.state(r.wheel).angular_velocity.y, 10.0, 1e-6);
  EXPECT_NEAR(r.sys.motor_torque(r.motor), 40.0, 1e-3);
}

// With a torque limit below what the speed needs, the motor saturates at the limit and the
// wheel spins up at alpha = T_max / I.
TEST(MbdForceElements, SpeedMotorSaturatesAtTorqueLimit) {
  Rotor r;
  build(r);
  r.sys.set_motor_speed(r.motor, 100.0, 6.0);
  for (int i = 0; i < 1000; ++i) r.sys.step(1e-3);
  EXPECT_NEAR(r.sys.motor_torque(r.motor), 6.0, 1e-9);
  EXPECT_NEAR(r.sys.revolute_speed(r.axle), 6.0 / r.inertia * 1.0, 1e-6);
}

// Torque control: alpha = T / I; coasting keeps the speed.
TEST(MbdForceElements, TorqueMotorAcceleratesAndCoasts) {
  Rotor r;
  build(r);
  r.sys.set_motor_torque(r.motor, 5.0);
  for (int i = 0; i < 1000; ++i) r.sys.step(1e-3);
  EXPECT_NEAR(r.sys.revolute_speed(r.axle), 2.5, 1e-6);
  EXPECT_NEAR(r.sys.motor_torque(r.motor), 5.0, 1e-12);
  r.sys.set_motor_free(r.motor);
  for (int i = 0; i < 1000; ++i) r.sys.step(1e-3);
  EXPECT_NEAR(r.sys.revolute_speed(r.axle), 2.5, 1e-6);
  EXPECT_EQ(r.sys.motor_torque(r.motor), 0.0);
}


// A dashpot to the world (set_world_damping): with nothing else acting, every velocity of the
// body shrinks by (1 - rate h) per step, linear and angular alike.
TEST(MbdForceElements, WorldDampingDecaysAFreeBodysVelocities) {
  MultibodySystem sys;
  sys.set_gravity({0, 0, 0});
  BodyDesc d = body("free", 40.0, {2.0, 3.0, 5.0}, {0, 0, 1});
  d.velocity = {1.0, 0.0, -2.0};
  d.angular_velocity = {0.0, 4.0, 0.0};  // about a principal axis: no gyroscopic exchange
  const BodyId b = sys.add_body(d);
  const double rate = 20.0, h = 1e-3;
  sys.set_world_damping(b, rate);
  const int steps = 100;
  for (int i = 0; i < steps; ++i) sys.step(h);
  const double share = std::pow(1.0 - rate * h, steps);  // about exp(-2)
  const BodyState s = sys.state(b);
  EXPECT_NEAR(s.velocity.x, 1.0 * share, 1e-9);
  EXPECT_NEAR(s.velocity.z, -2.0 * share, 1e-9);
  EXPECT_NEAR(s.angular_velocity.y, 4.0 * share, 1e-9);
  sys.set_world_damping(b, 0.0);  // released: the body keeps its speed
  sys.step(h);
  EXPECT_NEAR(sys.state(b).velocity.x, 1.0 * share, 1e-9);
}

// At rest the dashpot carries nothing: the spring of the first test still holds the whole
// weight, and it gets there without overshoot.
TEST(MbdForceElements, WorldDampingCarriesNoLoadAtRest) {
  MultibodySystem sys;
  const double m = 50.0, k = 2e4, rest = 0.5;
  const BodyId base = sys.add_body(fixed_body("base"));
  const BodyId mass = sys.add_body(body("mass", m, {1, 1, 1}, {0, 0, rest}));
  sys.add_prismatic(base, mass, {0, 0, rest}, {0, 0, 1});
  const ForceElementId s = sys.add_spring_damper(base, mass, {0, 0, 0}, {0, 0, rest}, k, 0.0, rest, 0.0);
  sys.set_world_damping(mass, 2.0 * std::sqrt(k / m));  // critical for this undamped spring
  const double expected = rest - m * kG / k;
  double lowest = rest;
  for (int i = 0; i < 3000; ++i) {
    sys.step(1e-3);
    lowest = std::min(lowest, sys.state(mass).position.z);
  }
  EXPECT_NEAR(sys.spring_force(s), m * kG, 1e-3);
  EXPECT_GT(lowest, expected - 1e-3 * (rest - expected));  // no overshoot beyond 0.1%
}

TEST(MbdForceElements, WorldDampingAboveOnePerStepIsRefused) {
  MultibodySystem sys;
  const BodyId b = sys.add_body(body("b", 1.0, {1, 1, 1}, {0, 0, 1}));
  EXPECT_THROW(sys.set_world_damping(b, -1.0), std::invalid_argument);
  EXPECT_THROW(sys.set_world_damping(b, std::nan("")), std::invalid_argument);
  sys.set_world_damping(b, 2000.0);
  EXPECT_THROW(sys.step(1e-3), std::invalid_argument);  // 2000 /s x 1 ms = 2: explicit, unstable
}

}  // namespace
}  // namespace trackcosim::vehicle
