// Compliant contacts (gpu/dynamics/contact_compliance.h): a body listed as compliant meets the
// others through a spring-damper solved inside the CCP, the law the co-simulation gives its
// track-shoe proxies. A sphere on a compliant floor is a mass on a spring, so the numbers come
// from the textbook oscillator (m = 1 kg, k = 1e4 N/m, h = 1e-3 s):
//   static sinkage m g / k = 0.981 mm;
//   undamped release from first touch: the sphere sinks to 2 m g / k = 1.962 mm after half a
//   period, pi sqrt(m / k) = 31.4 ms. The step's implicit spring (backward Euler in the
//   penetration) loses a little energy per step, hence the 10% tolerances of that case.

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "tests/gpu/dynamics_test_scenes.h"

namespace trackcosim::gpu::test {
namespace {

constexpr GlobalId kFloorGid = 1;
constexpr real kRadius = 0.1, kMass = 1.0, kStiffness = 1e4;

BodySet sphere_touching_floor() {
  BodySet scene;
  add_floor(scene, kFloorGid, 0.5);
  add_sphere_body(scene, 2, {0, 0, kRadius}, kRadius, kMass, 0.5);
  return scene;
}

class CompliantFloor : public ::testing::TestWithParam<SolverMethod> {};

// Damped (ratio 0.7): after 1 s the sphere rests at m g / k below the surface (1%), and the
// floor's impulse in the last step is m g h (1e-6 relative): compliance changes where the body
// rests, not the statics.
TEST_P(CompliantFloor, RestsAtTheStaticSinkage) {
  RigidBodySystem system(sphere_touching_floor(), settings_for(GetParam(), 0.005));
  const real damping = 2 * 0.7 * std::sqrt(kStiffness * kMass);
  system.set_compliant_bodies({{kFloorGid, kStiffness, damping}});
  for (int k = 0; k < 1000; ++k) system.step();
  const real sinkage = kRadius - system.body_state(1).position.z;
  EXPECT_NEAR(sinkage, kMass * kG / kStiffness, 0.01 * kMass * kG / kStiffness);
  const Vec3 p = impulse_given_by(system.contact_impulses(), kFloorGid);
  EXPECT_NEAR(p.z, kMass * kG * 1e-3, 1e-6 * kMass * kG * 1e-3);
  EXPECT_NEAR(p.x, 0, 1e-12);
  EXPECT_NEAR(p.y, 0, 1e-12);
}

// Undamped: the deepest point is 2 m g / k, reached after half a period.
TEST_P(CompliantFloor, UndampedReleaseOscillatesLikeASpring) {
  RigidBodySystem system(sphere_touching_floor(), settings_for(GetParam(), 0.005));
  system.set_compliant_bodies({{kFloorGid, kStiffness, 0}});
  real deepest = 0, when = 0;
  for (int k = 0; k < 60; ++k) {
    system.step();
    const real sinkage = kRadius - system.body_state(1).position.z;
    if (sinkage > deepest) deepest = sinkage, when = system.time();
  }
  EXPECT_NEAR(deepest, 2 * kMass * kG / kStiffness, 0.1 * 2 * kMass * kG / kStiffness);
  EXPECT_NEAR(when, kPi * std::sqrt(kMass / kStiffness), 0.1 * kPi * std::sqrt(kMass / kStiffness));
}

INSTANTIATE_TEST_SUITE_P(Methods, CompliantFloor, kBothMethods, method_name);

// The same sphere on a rigid floor keeps its bits whether or not some other body is compliant:
// the compliance only touches contacts of listed bodies.
TEST(CompliantBodies, LeaveRigidContactsBitwiseUnchanged) {
  RigidBodySystem rigid(sphere_touching_floor(), settings_for(SolverMethod::Jacobi, 0.005));
  RigidBodySystem other(sphere_touching_floor(), settings_for(SolverMethod::Jacobi, 0.005));
  other.set_compliant_bodies({{99, kStiffness, 10}});
  for (int k = 0; k < 200; ++k) rigid.step(), other.step();
  EXPECT_EQ(rigid.state_hash(), other.state_hash());
  EXPECT_LT(kRadius - rigid.body_state(1).position.z, 1e-6);
}

// Two compliant bodies in contact: the springs act in series, k_a k_b / (k_a + k_b).
TEST(CompliantBodies, TwoCompliantBodiesAreSpringsInSeries) {
  BodySet scene = sphere_touching_floor();
  RigidBodySystem system(scene, settings_for(SolverMethod::Apgd, 0.005));
  const real damping = 2 * 0.7 * std::sqrt(kStiffness * kMass);
  system.set_compliant_bodies({{kFloorGid, 2 * kStiffness, 2 * damping}, {2, 2 * kStiffness, 2 * damping}});
  for (int k = 0; k < 1000; ++k) system.step();
  EXPECT_NEAR(kRadius - system.body_state(1).position.z, kMass * kG / kStiffness, 0.01 * kMass * kG / kStiffness);
}

// A compliant kinematic body pressed delta = 1 mm into the fixed floor while sliding at
// v = 0.1 m/s: no body can move, so the spring alone gives the force, with friction at the
// cone's edge (mu = 0.5) against the sliding. The CCP's cone relaxation (Anitescu) turns
// sliding into a normal velocity mu |v|, which the spring sees as h mu |v| more compression:
// normal impulse h k (delta + h mu |v|), 5% above h k delta here. This is a shoe proxy that
// reached the container floor.
TEST_P(CompliantFloor, ImmovablePairGetsTheSpringForceAndSlidingFriction) {
  BodySet scene;
  add_floor(scene, kFloorGid, 0.5);
  BodyDesc d;
  d.gid = 2;
  d.motion = Motion::Kinematic;
  d.position = {0, 0, kRadius - 1e-3};
  d.velocity = {0.1, 0, 0};
  d.friction = 0.5;
  scene.add_sphere(scene.add_body(d), {0, 0, 0}, kRadius);
  RigidBodySystem system(scene, settings_for(GetParam(), 0.005));
  system.set_compliant_bodies({{2, kStiffness, 0}});
  system.step();
  const Vec3 p = impulse_given_by(system.contact_impulses(), kFloorGid);
  const real h = 1e-3, delta = 1e-3, mu = 0.5, v = 0.1;
  const real normal = h * kStiffness * (delta + h * mu * v);
  EXPECT_NEAR(p.z, normal, 1e-6 * normal);
  EXPECT_NEAR(p.x, -mu * normal, 1e-6 * normal);
  EXPECT_NEAR(p.y, 0, 1e-9 * normal);
}

TEST(CompliantBodies, RefuseNonPositiveStiffnessNegativeDampingAndRepeats) {
  RigidBodySystem system(sphere_touching_floor(), settings_for(SolverMethod::Jacobi, 0.005));
  EXPECT_THROW(system.set_compliant_bodies({{kFloorGid, 0, 1}}), std::invalid_argument);
  EXPECT_THROW(system.set_compliant_bodies({{kFloorGid, 1e4, -1}}), std::invalid_argument);
  EXPECT_THROW(system.set_compliant_bodies({{kFloorGid, 1e4, 1}, {kFloorGid, 2e4, 1}}), std::invalid_argument);
}

// Compliant grain contacts (SolverSettings::contact_stiffness): the same spring law for every
// contact that no listed body claims. The sphere on a rigid floor then rests at m g / k, as on a
// compliant floor, and the floor still carries m g.
TEST_P(CompliantFloor, GrainContactStiffnessGivesEveryContactTheSpring) {
  StepSettings s = settings_for(GetParam(), 0.005);
  s.solver.contact_stiffness = kStiffness;
  s.solver.contact_damping = 2 * 0.7 * std::sqrt(kStiffness * kMass);
  RigidBodySystem system(sphere_touching_floor(), s);
  for (int k = 0; k < 1000; ++k) system.step();
  EXPECT_NEAR(kRadius - system.body_state(1).position.z, kMass * kG / kStiffness, 0.01 * kMass * kG / kStiffness);
  const Vec3 p = impulse_given_by(system.contact_impulses(), kFloorGid);
  EXPECT_NEAR(p.z, kMass * kG * 1e-3, 1e-6 * kMass * kG * 1e-3);
}

// A listed compliant body keeps its own spring: the grain law only fills in for the others.
TEST_P(CompliantFloor, ListedBodyKeepsItsSpringUnderGrainCompliance) {
  StepSettings s = settings_for(GetParam(), 0.005);
  s.solver.contact_stiffness = 100 * kStiffness;
  RigidBodySystem system(sphere_touching_floor(), s);
  system.set_compliant_bodies({{kFloorGid, kStiffness, 2 * 0.7 * std::sqrt(kStiffness * kMass)}});
  for (int k = 0; k < 1000; ++k) system.step();
  EXPECT_NEAR(kRadius - system.body_state(1).position.z, kMass * kG / kStiffness, 0.01 * kMass * kG / kStiffness);
}

TEST(CompliantBodies, RefuseNegativeGrainStiffnessOrDamping) {
  StepSettings s = settings_for(SolverMethod::Jacobi, 0.005);
  s.solver.contact_stiffness = -1;
  EXPECT_THROW(RigidBodySystem(sphere_touching_floor(), s), std::invalid_argument);
  s.solver.contact_stiffness = 1e4;
  s.solver.contact_damping = -1;
  EXPECT_THROW(RigidBodySystem(sphere_touching_floor(), s), std::invalid_argument);
}

}  // namespace
}  // namespace trackcosim::gpu::test
