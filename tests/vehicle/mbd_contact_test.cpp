// Frictional contacts: sphere sets, cylinders, the ground.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <algorithm>
#include <memory>
#include <vector>

#include "tests/vehicle/mbd_test_util.h"

namespace trackcosim::vehicle {
namespace {

using test::axis_angle;
using test::body;
using test::fixed_body;
using test::kG;
using test::kPi;

constexpr std::uint32_t kPlank = 1, kWheel = 2, kBox = 3;

// A 400 kg wheel (cylinder, axis Y) resting on a 10 kg plank of 3 x 5 spheres lying on flat
// ground: the ground carries (400 + 10) g, the plank carries the wheel's 400 g, within 1 %.
TEST(MbdContact, WheelOnSpherePlankGroundReactionIsTotalWeight) {
  MultibodySystem sys;
  sys.set_ground(std::make_shared<FlatGround>(0.0), 0.8);
  sys.set_friction(0.8);
  const double r = 0.02, R = 0.3;
  const BodyId plank = sys.add_body(body("plank", 10.0, {0.1, 0.5, 0.5}, {0, 0, r}));
  std::vector<LocalSphere> spheres;
  for (int i = -2; i <= 2; ++i)
    for (int j = -1; j <= 1; ++j) spheres.push_back({{0.04 * i, 0.06 * j, 0.0}, r});
  sys.add_contact_spheres(plank, spheres, kPlank);
  const BodyId wheel = sys.add_body(body("road wheel", 400.0, {12, 18, 12}, {0, 0, 2 * r + R + 0.001}));
  sys.add_contact_cylinder(wheel, {0, 0, 0}, {0, 1, 0}, R, 0.1, kWheel);
  sys.set_family_collides(kPlank, kWheel, true);
  for (int i = 0; i < 1000; ++i) sys.step(1e-3);
  const double total = 410.0 * kG;
  EXPECT_NEAR(sys.ground_contact_force(plank).z, total, 0.01 * total);
  EXPECT_NEAR(sys.contact_force_between(wheel, plank).z, 400.0 * kG, 0.01 * 400.0 * kG);
  EXPECT_NEAR(sys.body_contact_force(plank).z, -400.0 * kG, 0.01 * 400.0 * kG);
  EXPECT_NEAR(sys.state(wheel).position.z, 2 * r + R, 1e-3);
  EXPECT_LT(length(sys.state(wheel).velocity), 1e-3);
  EXPECT_TRUE(sys.last_report().converged);
}

// The NDIA light robot's proportions (docs/vehicle-engine.md, "Compliance relative to the
// effective mass"): a 0.34 kg shoe of 2 x 2 pad spheres (7.5 mm) under a 15 kg wheel, h = 1e-3 s.
// The compliance floor softens these contacts ~20x; the statics must not notice: ground =
// (15 + 0.34) g, wheel-shoe = 15 g within 1 %, at rest (< 1 mm/s), converged. Returns the largest
// shoe speed seen over 1 s (settling must not kick the shoe).
double light_shoe_under_wheel(double floor, double* ground_z, double* wheel_z, bool* converged) {
  SolverSettings settings;
  settings.relative_compliance_floor = floor;
  MultibodySystem sys(settings);
  sys.set_ground(std::make_shared<FlatGround>(0.0), 0.9);
  sys.set_friction(0.8);
  const double r = 0.0075, R = 0.08;
  const BodyId shoe = sys.add_body(body("shoe", 0.34, {0.0012, 0.0002, 0.0013}, {0, 0, r}));
  std::vector<LocalSphere> pads;
  for (const double x : {-0.0125, 0.0125})
    for (const double y : {-0.01, 0.01}) pads.push_back({{x, y, 0.0}, r});
  sys.add_contact_spheres(shoe, pads, kPlank);
  const BodyId wheel = sys.add_body(body("road wheel", 15.0, {0.03, 0.05, 0.03}, {0, 0, 2 * r + R + 0.001}));
  sys.add_contact_cylinder(wheel, {0, 0, 0}, {0, 1, 0}, R, 0.015, kWheel);
  sys.set_family_collides(kPlank, kWheel, true);
  double vmax = 0.0;
  for (int i = 0; i < 1000; ++i) {
    sys.step(1e-3);
    vmax = std::max(vmax, length(sys.state(shoe).velocity));
  }
  *ground_z = sys.ground_contact_force(shoe).z;
  *wheel_z = sys.contact_force_between(wheel, shoe).z;
  *converged = sys.last_report().converged && length(sys.state(shoe).velocity) < 1e-3;
  return vmax;
}

TEST(MbdContact, LightShoeUnderWheelSettlesWithTheWeightOnTheGround) {
  double ground_z = 0.0, wheel_z = 0.0;
  bool settled = false;
  const double vmax = light_shoe_under_wheel(SolverSettings{}.relative_compliance_floor, &ground_z, &wheel_z, &settled);
  std::printf("light shoe: ground %.2f N, wheel %.2f N, peak shoe speed %.3g m/s\n", ground_z, wheel_z, vmax);
  EXPECT_NEAR(ground_z, 15.34 * kG, 0.01 * 15.34 * kG);
  EXPECT_NEAR(wheel_z, 15.0 * kG, 0.01 * 15.0 * kG);
  EXPECT_TRUE(settled);
  EXPECT_LT(vmax, 0.2);  // free fall from 1 mm: sqrt(2 g 1e-3) = 0.14 m/s
}

// Plane through the origin descending along +X at angle theta.
class Incline final : public Ground {
 public:
  explicit Incline(double theta) : t_(theta) {}
  double height(double x, double) const override { return -std::tan(t_) * x; }
  Vec3 normal(double, double) const override { return {std::sin(t_), 0.0, std::cos(t_)}; }

 private:
  double t_;
};

// A 20 kg box of 8 corner spheres resting on an incline with mu = 0.5, released from rest.
// Returns the distance travelled down the slope after 1 s.
double slide_distance(double theta_deg, double* speed) {
  const double theta = theta_deg * kPi / 180.0, mu = 0.5, r = 0.05, half = 0.2;
  MultibodySystem sys;
  sys.set_ground(std::make_shared<Incline>(theta), mu);
  const Quat q = axis_angle({0, 1, 0}, theta);  // box tilted with the slope
  const Vec3 n{std::sin(theta), 0, std::cos(theta)};
  BodyDesc d = body("box", 20.0, {0.6, 0.6, 0.6}, (half + r) * n);
  d.orientation = q;
  const BodyId box = sys.add_body(d);
  std::vector<LocalSphere> corners;
  for (int i : {-1, 1})
    for (int j : {-1, 1})
      for (int k : {-1, 1}) corners.push_back({{half * i, half * j, half * k}, r});
  sys.add_contact_spheres(box, corners, kBox);
  const Vec3 p0 = sys.state(box).position;
  for (int i = 0; i < 1000; ++i) sys.step(1e-3);
  const Vec3 down{std::cos(theta), 0, -std::sin(theta)};
  *speed = dot(sys.state(box).velocity, down);
  return dot(sys.state(box).position - p0, down);
}

// tan(20 deg) = 0.36 < mu = 0.5: the box sticks.
TEST(MbdContact, BoxOnInclineSticksBelowFrictionAngle) {
  double v = 0.0;
  EXPECT_LT(std::abs(slide_distance(20.0, &v)), 1e-4);
  EXPECT_LT(std::abs(v), 1e-4);
}

// tan(35 deg) = 0.70 > mu: it slides with a = g (sin - mu cos); v(1 s) = a within 10 %.
TEST(MbdContact, BoxOnInclineSlidesWithCoulombAcceleration) {
  const double theta = 35.0 * kPi / 180.0, a = kG * (std::sin(theta) - 0.5 * std::cos(theta));
  double v = 0.0;
  const double s = slide_distance(35.0, &v);
  EXPECT_NEAR(v, a * 1.0, 0.1 * a);
  EXPECT_NEAR(s, 0.5 * a, 0.1 * 0.5 * a);
}

// Sphere-sphere between bodies of colliding families (sprocket teeth against shoe pins): a
// 5 kg ball resting on a fixed ball carries its weight; with the families not colliding it
// falls through.
TEST(MbdContact, SphereOnSphereBetweenFamilies) {
  for (bool collides : {true, false}) {
    MultibodySystem sys;
    const BodyId tooth = sys.add_body(fixed_body("tooth", {0, 0, 0}));
    sys.add_contact_spheres(tooth, {{{0, 0, 0}, 0.05}}, 7);
    const BodyId pin = sys.add_body(body("pin", 5.0, {0.01, 0.01, 0.01}, {0, 0, 0.09}));
    sys.add_contact_spheres(pin, {{{0, 0, 0}, 0.04}}, 8);
    sys.set_family_collides(7, 8, collides);
    for (int i = 0; i < 500; ++i) sys.step(1e-3);
    if (collides) {
      EXPECT_NEAR(sys.contact_force_between(pin, tooth).z, 5.0 * kG, 1e-6);
      EXPECT_NEAR(sys.state(pin).position.z, 0.09, 1e-4);
    } else {
      EXPECT_LT(sys.state(pin).position.z, -1.0);
    }
  }
}

// Bodies joined by a joint never collide: a wheel hinged on a plank of spheres overlapping it
// turns freely under a torque (alpha = T / I).
TEST(MbdContact, JointedBodiesDoNotCollide) {
  MultibodySystem sys;
  sys.set_gravity({0, 0, 0});
  const BodyId frame = sys.add_body(fixed_body("frame"));
  sys.add_contact_spheres(frame, {{{0, 0, -0.25}, 0.1}}, kPlank);
  const BodyId wheel = sys.add_body(body("idler", 100.0, {3, 4, 3}, {0, 0, 0}));
  sys.add_contact_cylinder(wheel, {0, 0, 0}, {0, 1, 0}, 0.3, 0.1, kWheel);
  sys.set_family_collides(kPlank, kWheel, true);
  sys.add_revolute(frame, wheel, {0, 0, 0}, {0, 1, 0});
  sys.set_external_force(wheel, {0, 0, 0}, {0, 8.0, 0});
  for (int i = 0; i < 500; ++i) sys.step(1e-3);
  EXPECT_EQ(sys.last_report().contacts, 0);
  EXPECT_NEAR(sys.state(wheel).angular_velocity.y, 1.0, 1e-6);
}

}  // namespace
}  // namespace trackcosim::vehicle
