// Free bodies and input checking.

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "tests/vehicle/mbd_test_util.h"

namespace trackcosim::vehicle {
namespace {

using test::body;
using test::kG;

// Ballistic formula z(t) = z0 + vz0 t - g t^2 / 2. Semi-implicit Euler gives exactly
// z_n = z0 + vz0 t_n - g h^2 n (n + 1) / 2, i.e. the formula plus -g h t / 2: assert both.
TEST(MbdBodies, FreeFallMatchesBallisticFormula) {
  MultibodySystem sys;
  BodyDesc d = body("ball", 2.0, {0.1, 0.1, 0.1}, {1.0, -2.0, 10.0});
  d.velocity = {3.0, 0.5, 4.0};
  const BodyId b = sys.add_body(d);
  const double h = 1e-3;
  for (int steps : {10, 100, 1000}) {
    while (sys.time() < steps * h - 0.5 * h) sys.step(h);
    const double t = steps * h;
    const BodyState s = sys.state(b);
    const double z_discrete = 10.0 + 4.0 * t - kG * h * h * steps * (steps + 1) / 2.0;
    EXPECT_NEAR(s.position.z, z_discrete, 1e-9) << "t=" << t;
    EXPECT_NEAR(s.position.z, 10.0 + 4.0 * t - 0.5 * kG * t * t, 0.5 * kG * h * t + 1e-9) << "t=" << t;
    EXPECT_NEAR(s.position.x, 1.0 + 3.0 * t, 1e-9);
    EXPECT_NEAR(s.position.y, -2.0 + 0.5 * t, 1e-9);
    EXPECT_NEAR(s.velocity.z, 4.0 - kG * t, 1e-9);
  }
}

// Torque-free rotation about a principal axis keeps w constant and turns the body by w t.
TEST(MbdBodies, SpinAboutPrincipalAxisIsSteady) {
  MultibodySystem sys;
  sys.set_gravity({0, 0, 0});
  BodyDesc d = body("rotor", 5.0, {1.0, 2.0, 3.0}, {0, 0, 0});
  d.angular_velocity = {0.0, 0.0, 2.0};
  const BodyId b = sys.add_body(d);
  for (int i = 0; i < 500; ++i) sys.step(1e-3);
  const BodyState s = sys.state(b);
  EXPECT_NEAR(s.angular_velocity.z, 2.0, 1e-12);
  // q = (cos(w t / 2), 0, 0, sin(w t / 2)); first-order quaternion update: error O(h w^2 t).
  EXPECT_NEAR(s.orientation.w, std::cos(0.5), 1e-3);
  EXPECT_NEAR(s.orientation.z, std::sin(0.5), 1e-3);
}

TEST(MbdBodies, ExternalForceAccelerates) {
  MultibodySystem sys;
  sys.set_gravity({0, 0, 0});
  const BodyId b = sys.add_body(body("sled", 4.0, {1, 1, 1}, {0, 0, 0}));
  sys.set_external_force(b, {8.0, 0, 0}, {0, 0, 0.5});
  for (int i = 0; i < 1000; ++i) sys.step(1e-3);
  EXPECT_NEAR(sys.state(b).velocity.x, 2.0, 1e-9);         // a = F / m = 2 m/s^2
  EXPECT_NEAR(sys.state(b).angular_velocity.z, 0.5, 1e-9);  // alpha = T / I = 0.5 rad/s^2
}

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no std::invalid_argument thrown)";
}

TEST(MbdBodies, BadInputIsReportedByName) {
  MultibodySystem sys;
  const BodyId a = sys.add_body(body("chassis", 100.0, {1, 1, 1}, {0, 0, 0}));
  EXPECT_NE(error_of([&] { sys.add_body(body("ghost", 0.0, {1, 1, 1}, {0, 0, 0})); }).find("ghost"), std::string::npos);
  EXPECT_NE(error_of([&] { sys.add_body(body("flat", 1.0, {1, 0, 1}, {0, 0, 0})); }).find("inertia"),
            std::string::npos);
  EXPECT_NE(error_of([&] { sys.add_revolute(a, a, {0, 0, 0}, {0, 1, 0}); }).find("chassis"), std::string::npos);
  const BodyId b = sys.add_body(body("wheel", 10.0, {1, 1, 1}, {1, 0, 0}));
  EXPECT_NE(error_of([&] { sys.add_revolute(a, b, {1, 0, 0}, {0, 0, 0}); }).find("axis"), std::string::npos);
  EXPECT_NE(error_of([&] { sys.add_prismatic(a, BodyId{42}, {1, 0, 0}, {0, 0, 1}); }).find("unknown body id 42"),
            std::string::npos);
  EXPECT_NE(error_of([&] { sys.prismatic_displacement(JointId{3}); }).find("unknown joint id 3"), std::string::npos);
  const JointId hinge = sys.add_revolute(a, b, {1, 0, 0}, {0, 1, 0});
  EXPECT_NE(error_of([&] { sys.prismatic_displacement(hinge); }).find("not prismatic"), std::string::npos);
  EXPECT_NE(error_of([&] { sys.add_contact_cylinder(b, {0, 0, 0}, {0, 0, 0}, 0.3, 0.1, 1); }).find("wheel"),
            std::string::npos);
  EXPECT_NE(error_of([&] { sys.step(0.0); }).find("h must be > 0"), std::string::npos);
}

}  // namespace
}  // namespace trackcosim::vehicle
