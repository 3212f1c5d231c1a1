// Speed control of a body against the world (the drawbar rig's carriage) against analytic answers.

#include <gtest/gtest.h>

#include <cmath>

#include "tests/vehicle/mbd_test_util.h"

namespace trackcosim::vehicle {
namespace {

using test::body;
using test::kG;

// A 20 kg body pushed by 150 N along x under gravity, its x speed held at 0.5 m/s: the control
// pushes back with exactly -150 N, the body falls freely (z = -g t^2 / 2: the row binds x only)
// and does not turn.
TEST(MbdBodyDrive, HoldsItsSpeedAlongItsAxisOnlyAndReportsTheForce) {
  MultibodySystem sys;
  const double m = 20.0, push = 150.0, h = 1e-3;
  const BodyId b = sys.add_body(body("carriage", m, {1, 2, 3}, {0, 0, 0}));
  const BodyDriveId c = sys.add_body_drive(b, {0, 0, 0}, {2, 0, 0});  // any length
  sys.set_external_force(b, {push, 0, 0}, {0, 0, 0});
  sys.set_body_drive_speed(c, 0.5);
  for (int i = 0; i < 1000; ++i) sys.step(h);
  const BodyState s = sys.state(b);
  EXPECT_NEAR(s.velocity.x, 0.5, 1e-6);
  EXPECT_NEAR(sys.body_drive_force(c), -push, 1e-6 * push);
  EXPECT_NEAR(s.velocity.z, -kG * 1.0, 1e-9);  // semi-implicit Euler: v = -g t exactly
  EXPECT_NEAR(s.position.z, -0.5 * kG * 1.0 * (1.0 + h), 1e-9);  // sum of h v_k: g t (t + h) / 2
  EXPECT_NEAR(s.angular_velocity.y, 0.0, 1e-9);
  // Released, the push accelerates it: dv = F / m over the next 0.1 s; the force reads 0.
  sys.release_body_drive(c);
  for (int i = 0; i < 100; ++i) sys.step(h);
  EXPECT_NEAR(sys.state(b).velocity.x, 0.5 + push / m * 0.1, 1e-6);
  EXPECT_EQ(sys.body_drive_force(c), 0.0);
}

// Held off the centre of mass, the force acts at its point: a free body held still at a point
// 0.4 m above its centre against a push of F at the centre turns under the couple F x 0.4
// (the point's speed stays zero, the body pivots about it).
TEST(MbdBodyDrive, AnArmAboveTheCentreMakesTheBodyPivotAboutThePoint) {
  MultibodySystem sys;
  const double m = 10.0, iyy = 0.5, d = 0.4, push = 40.0, h = 1e-4;
  sys.set_gravity({0, 0, 0});
  const BodyId b = sys.add_body(body("block", m, {1, iyy, 1}, {0, 0, 0}));
  const BodyDriveId c = sys.add_body_drive(b, {0, 0, d}, {1, 0, 0});
  sys.set_external_force(b, {push, 0, 0}, {0, 0, 0});
  sys.set_body_drive_speed(c, 0.0);
  for (int i = 0; i < 100; ++i) sys.step(h);  // 10 ms: the angle stays small
  // About the held point P: the push at the centre, d below P, has the moment
  // (0, 0, -d) x (F, 0, 0) = (0, -F d, 0), so (I + m d^2) alpha_y = -F d.
  const double alpha = -push * d / (iyy + m * d * d);
  EXPECT_NEAR(sys.state(b).angular_velocity.y, alpha * 0.01, 1e-3 * std::fabs(alpha) * 0.01);
  const BodyState s = sys.state(b);
  EXPECT_NEAR(s.velocity.x + s.angular_velocity.y * d, 0.0, 1e-6);  // the point's x speed: v + w x r
}

TEST(MbdBodyDrive, BadInputIsReportedByName) {
  MultibodySystem sys;
  const BodyId b = sys.add_body(body("chassis", 1.0, {1, 1, 1}, {0, 0, 0}));
  EXPECT_THROW(sys.add_body_drive(b, {0, 0, 0}, {0, 0, 0}), std::invalid_argument);
  EXPECT_THROW(sys.set_body_drive_speed(BodyDriveId{3}, 1.0), std::invalid_argument);
  const BodyDriveId c = sys.add_body_drive(b, {0, 0, 0}, {1, 0, 0});
  EXPECT_THROW(sys.set_body_drive_speed(c, std::nan("")), std::invalid_argument);
}

}  // namespace
}  // namespace trackcosim::vehicle
