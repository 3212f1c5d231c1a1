// Implicit loads (MultibodySystem::set_implicit_load): a spring and damper towards a moving
// anchor, integrated implicitly, against analytic answers and the explicit scheme's bound.

#include <gtest/gtest.h>

#include <cmath>

#include "tests/vehicle/mbd_test_util.h"

namespace trackcosim::vehicle {
namespace {

using test::body;
using test::kG;

ImplicitLoad vertical_spring(double k, double c, BodyState anchor, double anchor_time = 0) {
  ImplicitLoad load;
  load.stiffness[6 * 2 + 2] = k;
  load.damping[6 * 2 + 2] = c;
  load.anchor = anchor;
  load.anchor_time = anchor_time;
  return load;
}

BodyState at_rest(Vec3 x) { return {x, {1, 0, 0, 0}, {0, 0, 0}, {0, 0, 0}}; }

// A 0.34 kg shoe hanging from a spring of 4e6 N/m (omega h = 3.4 at h = 1 ms: the same spring as
// a force of the step's start state diverges beyond omega h = 2) comes to rest at the static
// deflection m g / k.
TEST(MbdImplicitLoad, StiffSpringFarBeyondTheExplicitBoundSettlesAtTheStaticDeflection) {
  const double m = 0.34, k = 4e6, c = 60, h = 1e-3;
  MultibodySystem sys;
  const BodyId shoe = sys.add_body(body("shoe", m, {1e-3, 1e-3, 1e-3}, {0, 0, 0}));
  sys.set_implicit_load(shoe, vertical_spring(k, c, at_rest({0, 0, 0})));
  double highest = 0;
  for (int i = 0; i < 2000; ++i) {
    sys.step(h);
    highest = std::max(highest, std::fabs(sys.state(shoe).position.z));
  }
  EXPECT_NEAR(sys.state(shoe).position.z, -m * kG / k, 1e-12);
  EXPECT_LT(highest, 2.5 * m * kG / k);  // no growing swing on the way
  EXPECT_NEAR(sys.state(shoe).velocity.z, 0.0, 1e-9);

  // The same spring applied as an explicit force of the state at each step's start diverges.
  MultibodySystem explicit_sys;
  const BodyId e = explicit_sys.add_body(body("shoe", m, {1e-3, 1e-3, 1e-3}, {0, 0, 0}));
  for (int i = 0; i < 200; ++i) {
    const BodyState s = explicit_sys.state(e);
    explicit_sys.set_external_force(e, {0, 0, -k * s.position.z - c * s.velocity.z}, {0, 0, 0});
    explicit_sys.step(h);
  }
  EXPECT_GT(std::fabs(explicit_sys.state(e).position.z), 1.0);
}

// The anchor moves at constant velocity: a body started 1 mm off it and at rest is pulled onto
// its path and then moves with it, gravity off (critically damped: c = 2 sqrt(k m)).
TEST(MbdImplicitLoad, ABodyIsPulledOntoItsMovingAnchorsPath) {
  MultibodySystem sys;
  sys.set_gravity({0, 0, 0});
  const double m = 2.0, k = 1e7, c = 2 * std::sqrt(k * m);
  const BodyId b = sys.add_body(body("shoe", m, {0.1, 0.1, 0.1}, {0, 0, 1.001}));
  const BodyState anchor{{0, 0, 1}, {1, 0, 0, 0}, {0.5, 0, -0.2}, {0, 0, 0}};
  ImplicitLoad load = vertical_spring(k, c, anchor);
  load.stiffness[0] = k, load.damping[0] = c;  // x too
  sys.set_implicit_load(b, load);
  for (int i = 0; i < 100; ++i) sys.step(1e-3);
  EXPECT_NEAR(sys.state(b).position.x, 0.05, 1e-6);
  EXPECT_NEAR(sys.state(b).position.z, 1.0 - 0.02, 1e-6);
  EXPECT_NEAR(sys.state(b).velocity.x, 0.5, 1e-4);
  EXPECT_NEAR(sys.state(b).velocity.z, -0.2, 1e-4);
}

// With a zero stiffness and damping the load changes nothing: the same bits as no load (the
// mass blocks are full 6x6 then, so only the values, not the answer, may differ in rounding;
// a falling body has no rows and its answer is exact either way).
TEST(MbdImplicitLoad, AZeroLoadIsNoLoad) {
  MultibodySystem a, b;
  const BodyId ba = a.add_body(body("x", 1.0, {1, 1, 1}, {0, 0, 1}));
  const BodyId bb = b.add_body(body("x", 1.0, {1, 1, 1}, {0, 0, 1}));
  b.set_implicit_load(bb, ImplicitLoad{});
  for (int i = 0; i < 50; ++i) a.step(1e-3), b.step(1e-3);
  EXPECT_EQ(a.state(ba).position.z, b.state(bb).position.z);
  b.clear_implicit_loads();
  EXPECT_THROW(b.set_implicit_load(bb, vertical_spring(NAN, 0, at_rest({0, 0, 0}))), std::invalid_argument);
}

// A rotational stiffness about x towards an anchor that spins at 2 rad/s about x: a body
// started at rest is pulled up to the anchor's spin and follows it.
TEST(MbdImplicitLoad, RotationFollowsASpinningAnchor) {
  MultibodySystem sys;
  sys.set_gravity({0, 0, 0});
  const BodyId b = sys.add_body(body("wheel", 1.0, {0.01, 0.01, 0.01}, {0, 0, 0}));
  ImplicitLoad load;
  load.stiffness[6 * 3 + 3] = 100.0;  // N m/rad: omega = 100 rad/s
  load.damping[6 * 3 + 3] = 2.0;      // critical: 2 sqrt(k I)
  load.anchor = {{0, 0, 0}, {1, 0, 0, 0}, {0, 0, 0}, {2.0, 0, 0}};
  sys.set_implicit_load(b, load);
  for (int i = 0; i < 1000; ++i) sys.step(1e-3);
  EXPECT_NEAR(sys.state(b).angular_velocity.x, 2.0, 1e-3);
  // After 1 s the anchor has turned 2 rad about x; the body lags it by less than 1 mrad.
  const Quat q = sys.state(b).orientation;
  EXPECT_NEAR(2.0 * std::atan2(q.x, q.w), 2.0, 1e-3);
}

}  // namespace
}  // namespace trackcosim::vehicle
