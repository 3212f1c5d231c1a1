// Bad input to RigidBodySystem: every case throws std::invalid_argument whose message names the
// body's gid (or the setting), so a user can find the culprit in a scene of 10^6 bodies.
// The gid 4242 is chosen to be unmistakable in a message.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "tests/gpu/dynamics_test_scenes.h"

namespace trackcosim::gpu::test {
namespace {

constexpr GlobalId kBadGid = 4242;

/// A floor, one good sphere, and the body under test (gid 4242, index 2), then another good one.
BodySet scene_with(const BodyDesc& bad, real bad_radius = 0.1) {
  BodySet scene;
  add_floor(scene, 1, 0.5);
  add_sphere_body(scene, 2, {0, 0, 1}, 0.1, 1, 0.5);
  const std::uint32_t b = scene.add_body(bad);
  scene.add_sphere(b, {0, 0, 0}, bad_radius);
  add_sphere_body(scene, 5000, {1, 0, 1}, 0.1, 1, 0.5);
  return scene;
}

BodyDesc good_body() {
  BodyDesc d;
  d.gid = kBadGid;
  d.position = {0, 0, 3};
  d.mass = 1;
  d.inertia = {0.004, 0.004, 0.004};
  return d;
}

/// Expects the constructor to throw std::invalid_argument mentioning `needle` (or `alternative`).
void expect_rejected(const BodySet& scene, const StepSettings& settings, const std::string& needle,
                     const std::string& alternative = "") {
  try {
    RigidBodySystem system(scene, settings);
    ADD_FAILURE() << "accepted; expected std::invalid_argument naming " << needle;
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    const bool named = message.find(needle) != std::string::npos ||
                       (!alternative.empty() && message.find(alternative) != std::string::npos);
    EXPECT_TRUE(named) << "message \"" << message << "\" does not name " << needle;
  }
}

TEST(RigidBodySystemInput, AcceptsTheGoodScene) {
  EXPECT_NO_THROW(RigidBodySystem(scene_with(good_body()), StepSettings{}));
}

TEST(RigidBodySystemInput, RejectsNonPositiveMass) {
  for (const real mass : {0.0, -1.0}) {
    BodyDesc d = good_body();
    d.mass = mass;
    expect_rejected(scene_with(d), StepSettings{}, std::to_string(kBadGid));
  }
}

TEST(RigidBodySystemInput, RejectsNonPositiveInertia) {
  BodyDesc d = good_body();
  d.inertia = {0.004, 0, 0.004};
  expect_rejected(scene_with(d), StepSettings{}, std::to_string(kBadGid));
}

TEST(RigidBodySystemInput, IgnoresMassOfFixedBodies) {
  BodyDesc d = good_body();
  d.motion = Motion::Fixed;
  d.mass = 0;
  EXPECT_NO_THROW(RigidBodySystem(scene_with(d), StepSettings{}));
}

TEST(RigidBodySystemInput, RejectsNegativeFriction) {
  BodyDesc d = good_body();
  d.friction = -0.1;
  expect_rejected(scene_with(d), StepSettings{}, std::to_string(kBadGid));
}

TEST(RigidBodySystemInput, RejectsNonPositiveRadius) {
  for (const real radius : {0.0, -0.1})
    expect_rejected(scene_with(good_body(), radius), StepSettings{}, std::to_string(kBadGid));
}

TEST(RigidBodySystemInput, RejectsNonFinitePosition) {
  BodyDesc d = good_body();
  d.position.y = std::numeric_limits<real>::quiet_NaN();
  expect_rejected(scene_with(d), StepSettings{}, std::to_string(kBadGid));
}

// BodySet::add_body refuses a gid that is not larger than the last; a BodySet edited directly
// (its fields are public) must still be refused by the system, naming the offending gid.
TEST(RigidBodySystemInput, RejectsNonIncreasingGids) {
  BodySet scene = scene_with(good_body());
  EXPECT_THROW(add_sphere_body(scene, kBadGid, {0, 0, 5}, 0.1, 1, 0.5), std::invalid_argument);
  EXPECT_THROW(add_sphere_body(scene, 5000, {0, 0, 5}, 0.1, 1, 0.5), std::invalid_argument);
  scene.gid[1] = kBadGid;  // now 1, 4242, 4242, 5000
  expect_rejected(scene, StepSettings{}, std::to_string(kBadGid));
  scene.gid[1] = 4243;  // now 1, 4243, 4242, 5000: decreasing
  expect_rejected(scene, StepSettings{}, std::to_string(kBadGid));
}

TEST(RigidBodySystemInput, RejectsNonPositiveStepSize) {
  for (const real h : {0.0, -1e-3}) {
    StepSettings s;
    s.step_size = h;
    expect_rejected(scene_with(good_body()), s, "step_size", "step size");
  }
}

// The shapes live in device memory from step to step, so a pose that went non-finite during
// the run (a kinematic body driven to NaN, a blown-up solve) is caught by the collision pass on
// the device, which then names the sphere and its body as the host check does.
TEST(RigidBodySystemInput, NonFinitePoseDuringTheRunNamesTheBody) {
  BodyDesc d = good_body();
  d.motion = Motion::Kinematic;
  RigidBodySystem system(scene_with(d), StepSettings{});
  system.step();
  system.set_pose(2, {std::numeric_limits<real>::quiet_NaN(), 0, 3}, {1, 0, 0, 0});
  try {
    system.step();
    ADD_FAILURE() << "a NaN centre was accepted";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("sphere"), std::string::npos) << message;
    EXPECT_NE(message.find(std::to_string(kBadGid)), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace trackcosim::gpu::test
