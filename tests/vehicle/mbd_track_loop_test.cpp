// A tracked-vehicle-sized system built directly on the engine (no templates): a 10 t chassis,
// two closed loops of 64 pinned 10 kg shoes around a sprocket, a tensioned idler, 5 road
// wheels (400 kg) and 2 top rollers per side, on flat ground. It checks that the track stays
// on (pins closed, chassis carried by the ground) and prints the cost per step; the M113-class
// size of issue 5 (~150 bodies, ~750 joint rows, ~150-250 contacts).

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "tests/vehicle/mbd_test_util.h"

namespace trackcosim::vehicle {
namespace {

using test::axis_angle;
using test::body;
using test::kG;
using test::kPi;

constexpr std::uint32_t kShoeInner = 1, kShoeOuter = 2, kWheels = 3;
constexpr int kArcShoes = 6, kSpanShoes = 26;  // 2 * (6 + 26) = 64 shoes per loop
constexpr double kPitch = 0.15;

struct Side {
  MotorId sprocket_motor;
  std::vector<BodyId> shoes;
};

// Pin points of the closed loop in the XZ plane: bottom span forward, around the sprocket,
// top span backward, around the idler. Arcs are regular polygons whose chords equal the pitch.
std::vector<Vec3> loop_pins(double xi, double xs, double zc, double R, double y) {
  std::vector<Vec3> v;
  for (int k = 0; k < kSpanShoes; ++k) v.push_back({xi + k * kPitch, y, zc - R});
  for (int j = 0; j < kArcShoes; ++j) {
    const double phi = -kPi / 2 + j * kPi / kArcShoes;
    v.push_back({xs + R * std::cos(phi), y, zc + R * std::sin(phi)});
  }
  for (int k = 0; k < kSpanShoes; ++k) v.push_back({xs - k * kPitch, y, zc + R});
  for (int j = 0; j < kArcShoes; ++j) {
    const double phi = kPi / 2 + j * kPi / kArcShoes;
    v.push_back({xi + R * std::cos(phi), y, zc + R * std::sin(phi)});
  }
  return v;
}

Side build_side(MultibodySystem& sys, BodyId chassis, double y) {
  const double R = kPitch / (2 * std::sin(kPi / (2 * kArcShoes)));  // polygon radius
  const double zc = R + 0.05, xi = 0.0, xs = kSpanShoes * kPitch;
  Side side;
  const auto pins = loop_pins(xi, xs, zc, R, y);
  const int n = static_cast<int>(pins.size());
  for (int i = 0; i < n; ++i) {
    const Vec3 a = pins[i], b = pins[(i + 1) % n];
    const Vec3 e = (1.0 / kPitch) * (b - a);
    BodyDesc d = body("shoe", 10.0, {0.08, 0.02, 0.09}, 0.5 * (a + b));
    d.orientation = axis_angle({0, 1, 0}, std::atan2(-e.z, e.x));  // body x along the chord, z inward
    const BodyId s = sys.add_body(d);
    sys.add_contact_spheres(s, {{{0, 0.1, 0.03}, 0.02}, {{0, -0.1, 0.03}, 0.02}}, kShoeInner);
    sys.add_contact_spheres(s,
                            {{{0.05, 0.15, -0.03}, 0.02}, {{-0.05, 0.15, -0.03}, 0.02},
                             {{0.05, -0.15, -0.03}, 0.02}, {{-0.05, -0.15, -0.03}, 0.02}},
                            kShoeOuter);
    side.shoes.push_back(s);
  }
  for (int i = 0; i < n; ++i) sys.add_revolute(side.shoes[i], side.shoes[(i + 1) % n], pins[(i + 1) % n], {0, 1, 0});

  const double wheel_r = R * std::cos(kPi / (2 * kArcShoes)) - 0.05;  // touches the inner spheres
  const BodyId sprocket = sys.add_body(body("sprocket", 400.0, {10, 16, 10}, {xs, y, zc}));
  sys.add_contact_cylinder(sprocket, {0, 0, 0}, {0, 1, 0}, wheel_r, 0.12, kWheels);
  side.sprocket_motor = sys.add_rotational_motor(sys.add_revolute(chassis, sprocket, {xs, y, zc}, {0, 1, 0}));
  // Idler on a carrier sliding along X, pushed backward by a preloaded tensioner spring.
  const BodyId carrier = sys.add_body(body("idler carrier", 50.0, {1, 1, 1}, {xi, y, zc}));
  const JointId slide = sys.add_prismatic(chassis, carrier, {xi, y, zc}, {1, 0, 0});
  sys.set_prismatic_limits(slide, -0.1, 0.1);
  sys.add_spring_damper(chassis, carrier, {xi + 0.5, y, zc}, {xi, y, zc}, 2e5, 5e3, 0.5, 2e4);
  const BodyId idler = sys.add_body(body("idler", 300.0, {8, 12, 8}, {xi, y, zc}));
  sys.add_contact_cylinder(idler, {0, 0, 0}, {0, 1, 0}, wheel_r, 0.12, kWheels);
  sys.add_revolute(carrier, idler, {xi, y, zc}, {0, 1, 0});
  for (int k = 0; k < 5; ++k) {
    const double rw = 0.25, x = xi + 0.6 + k * (xs - xi - 1.2) / 4;
    const BodyId w = sys.add_body(body("road wheel", 400.0, {8, 12.5, 8}, {x, y, zc - R + 0.05 + rw}));
    sys.add_contact_cylinder(w, {0, 0, 0}, {0, 1, 0}, rw, 0.12, kWheels);
    sys.add_revolute(chassis, w, {x, y, zc - R + 0.05 + rw}, {0, 1, 0});
  }
  for (int k = 1; k <= 2; ++k) {
    const double rr = 0.1, x = xi + k * (xs - xi) / 3;
    const BodyId w = sys.add_body(body("top roller", 30.0, {0.2, 0.3, 0.2}, {x, y, zc + R - 0.05 - rr}));
    sys.add_contact_cylinder(w, {0, 0, 0}, {0, 1, 0}, rr, 0.12, kWheels);
    sys.add_revolute(chassis, w, {x, y, zc + R - 0.05 - rr}, {0, 1, 0});
  }
  return side;
}

TEST(MbdTrackLoop, TwoTracksOf64ShoesDriveOnFlatGround) {
  MultibodySystem sys;
  sys.set_ground(std::make_shared<FlatGround>(0.0), 0.9);
  sys.set_friction(0.8);
  sys.set_family_collides(kShoeInner, kWheels, true);
  sys.set_ground_collides(kShoeInner, false);
  const double xs = kSpanShoes * kPitch;
  const BodyId chassis = sys.add_body(body("chassis", 10000.0, {5600, 14000, 18000}, {0.5 * xs, 0, 1.2}));
  std::vector<Side> sides{build_side(sys, chassis, 1.2), build_side(sys, chassis, -1.2)};
  const double h = 1e-3;
  double worst = 0.0, solve_s = 0.0;
  int max_contacts = 0, max_rows = 0, max_iter = 0, unconverged = 0;
  const auto t0 = std::chrono::steady_clock::now();
  const int steps = 2000;
  for (int i = 0; i < steps; ++i) {
    const double speed = i < 500 ? 0.0 : std::min(3.0, 3.0 * (i - 500) * h / 0.5);  // ramp after settling
    for (Side& s : sides) sys.set_motor_speed(s.sprocket_motor, speed);  // +Y spin rolls the vehicle towards +X
    sys.step(h);
    worst = std::max(worst, sys.max_joint_violation());
    const StepReport& r = sys.last_report();
    max_contacts = std::max(max_contacts, r.contacts);
    max_rows = std::max(max_rows, r.constraint_rows);
    max_iter = std::max(max_iter, r.solver_iterations);
    unconverged += r.converged ? 0 : 1;
    solve_s += r.seconds_of(Phase::kSolve);
  }
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / steps;
  const BodyState c = sys.state(chassis);
  std::printf("track loop: bodies=%zu rows<=%d contacts<=%d iterations<=%d unconverged=%d ms_per_step=%.3f "
              "(solve %.3f) realtime_factor=%.2f chassis vx=%.3f z=%.3f max_violation=%.3g\n",
              sys.body_count(), max_rows, max_contacts, max_iter, unconverged, ms, 1e3 * solve_s / steps,
              h * 1e3 / ms, c.velocity.x, c.position.z, worst);
  EXPECT_LT(worst, 1e-3);
  // Driven by friction on the sprocket, the vehicle advances at sprocket speed times the pitch
  // radius (the polygon radius R) within 5 %.
  const double R = kPitch / (2 * std::sin(kPi / (2 * kArcShoes)));
  EXPECT_NEAR(c.velocity.x, 3.0 * R, 0.05 * 3.0 * R);
  // The shoes carry the chassis: the vertical ground force is at least the chassis weight.
  double ground_z = 0.0;
  for (const Side& s : sides)
    for (BodyId b : s.shoes) ground_z += sys.ground_contact_force(b).z;
  EXPECT_GT(ground_z, 10000 * kG);
}

}  // namespace
}  // namespace trackcosim::vehicle
