// Axial bodies (Motion::Axial): dynamic along and about the world z axis only, as the anchor of
// NDIA 2012 sec. 5.3 ("restricted to move straight up or down and to rotate only about the
// vertical axis"). The projection of M^-1 is in gpu/dynamics/detail/device_bodies.h.

#include <gtest/gtest.h>

#include <cmath>

#include "tests/gpu/dynamics_test_scenes.h"

namespace trackcosim::gpu::test {
namespace {

/// A compound of three spheres in a row along the body's x axis, with unequal principal moments,
/// axial, tilted by `orientation`.
std::uint32_t add_axial_rod(BodySet& set, GlobalId gid, Vec3 position, Quat orientation, real mass, Vec3 inertia) {
  BodyDesc d;
  d.gid = gid;
  d.position = position;
  d.orientation = orientation;
  d.mass = mass;
  d.inertia = inertia;
  d.motion = Motion::Axial;
  d.friction = 0.5;
  const std::uint32_t b = set.add_body(d);
  for (const real x : {-0.2, 0.0, 0.2}) set.add_sphere(b, {x, 0, 0}, 0.1);
  return b;
}

/// e_z . R diag(I) R^T e_z: the moment about the world z axis (constant while the body turns
/// about it).
real moment_about_z(Quat q, Vec3 inertia) {
  const Vec3 b = rotate_inverse(q, {0, 0, 1});
  return inertia.x * b.x * b.x + inertia.y * b.y * b.y + inertia.z * b.z * b.z;
}

Quat about_axis(Vec3 axis, real angle) {
  const real s = std::sin(angle / 2);
  return {std::cos(angle / 2), s * axis.x, s * axis.y, s * axis.z};
}

class AxialBody : public ::testing::TestWithParam<SolverMethod> {};

// Free flight of an axial body, tilted (30 degrees about (1, 1, 0)/sqrt 2, so no principal axis
// is vertical), under gravity plus a sideways force (40, -30, 0) N and a torque (7, -5, tau_z).
// Only the z parts may act (detail/device_bodies.h):
//   vz_n = n h a,  z_n = z0 + a h^2 n (n + 1) / 2,  a = F_z / m + g_z = 0 - 9.81 m/s^2
//   (semi-implicit Euler, as in FreeFall), x, y, vx, vy, wx, wy unchanged bit for bit;
//   wz_n = n h tau_z / I_zz,  I_zz = e_z^T R diag(I) R^T e_z,  and the heading turns by
//   phi_n = h sum_k wz_k = tau_z / I_zz h^2 n (n + 1) / 2: q_n = R_z(phi_n) q_0.
// Tolerances: 1e-11 on z and vz (rounding over 1000 steps of values below 10, as FreeFall);
// 1e-12 relative on wz; the tilt (each body axis's z component) to 1e-12 (the quaternion's
// normalisation rounds every step), q_n against R_z(phi_n) q_0 to 1e-9 (exp map per step is
// exact for a constant w: only rounding).
TEST_P(AxialBody, TranslatesAlongAndTurnsAboutWorldZOnly) {
  const real h = 1e-3, z0 = 5, mass = 3, tau_z = 0.6;
  const Vec3 inertia{0.02, 0.09, 0.1};
  const Quat q0 = about_axis({std::sqrt(0.5), std::sqrt(0.5), 0}, kPi / 6);
  BodySet scene;
  const std::uint32_t b = add_axial_rod(scene, 7, {0.25, -1.5, z0}, q0, mass, inertia);
  scene.fx[b] = 40, scene.fy[b] = -30, scene.fz[b] = 0;
  scene.tx[b] = 7, scene.ty[b] = -5, scene.tz[b] = tau_z;
  RigidBodySystem system(scene, settings_for(GetParam(), 0.01));
  const real izz = moment_about_z(q0, inertia);

  int done = 0;
  for (const int n : {1, 10, 100, 1000}) {
    step_n(system, n - done);
    done = n;
    SCOPED_TRACE("after " + std::to_string(n) + " steps");
    const BodyState s = system.body_state(b);
    EXPECT_EQ(s.position.x, 0.25);
    EXPECT_EQ(s.position.y, -1.5);
    EXPECT_EQ(s.velocity.x, 0.0);
    EXPECT_EQ(s.velocity.y, 0.0);
    EXPECT_EQ(s.angular_velocity.x, 0.0);
    EXPECT_EQ(s.angular_velocity.y, 0.0);
    EXPECT_NEAR(s.velocity.z, -kG * h * n, 1e-11);
    EXPECT_NEAR(s.position.z, z0 - kG * h * h * n * (n + 1) / 2, 1e-11);
    const real wz = n * h * tau_z / izz;
    EXPECT_NEAR(s.angular_velocity.z, wz, 1e-12 * wz);
    for (const Vec3 axis : {Vec3{1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, 1}})
      EXPECT_NEAR(rotate(s.orientation, axis).z, rotate(q0, axis).z, 1e-12);
    const real phi = tau_z / izz * h * h * n * (n + 1) / 2;
    const Quat expected = multiply(about_axis({0, 0, 1}, phi), q0);
    const real sign = expected.w * s.orientation.w < 0 ? -1 : 1;
    EXPECT_NEAR(s.orientation.w, sign * expected.w, 1e-9);
    EXPECT_NEAR(s.orientation.x, sign * expected.x, 1e-9);
    EXPECT_NEAR(s.orientation.y, sign * expected.y, 1e-9);
    EXPECT_NEAR(s.orientation.z, sign * expected.z, 1e-9);
  }
}

// An axial body upright (identity orientation) keeps its orientation bit for bit under a torque
// without z part: w stays (0, 0, 0) exactly, and the exp map of a zero rotation is the identity.
TEST_P(AxialBody, ATorqueWithoutZPartTurnsNothing) {
  BodySet scene;
  const std::uint32_t b = add_axial_rod(scene, 3, {0, 0, 2}, {1, 0, 0, 0}, 2, {0.01, 0.03, 0.03});
  scene.tx[b] = 50, scene.ty[b] = -20;
  scene.wx[b] = 4, scene.wy[b] = 1;  // dropped at upload: the body starts in its subspace
  RigidBodySystem system(scene, settings_for(GetParam(), 0.01));
  step_n(system, 200);
  const BodyState s = system.body_state(b);
  EXPECT_EQ(s.orientation.w, 1.0);
  EXPECT_EQ(s.orientation.x, 0.0);
  EXPECT_EQ(s.orientation.y, 0.0);
  EXPECT_EQ(s.orientation.z, 0.0);
  EXPECT_EQ(s.angular_velocity.x, 0.0);
  EXPECT_EQ(s.angular_velocity.y, 0.0);
  EXPECT_EQ(s.angular_velocity.z, 0.0);
}

// Contacts act through the same projection. An axial rod dropped on a frictionless plane tilted
// 30 degrees about y: a free body would slide down the slope; the axial one may only sink, so it
// lands and rests with x and y unchanged bit for bit, at the height where its lowest sphere
// touches the plane. The plane through the origin with normal n = (sin 30, 0, cos 30) holds a
// sphere of radius r centred at c when n.c = r; the rod's spheres lie along x at -0.2, 0, 0.2
// from the centre (x0 = 0.3), so the lowest is at x = 0.1 and rests at
//   z = (r - sin30 (x0 - 0.2)) / cos30.
// Tolerance 1e-4 m on the rest height (the solver's residual penetration at 100 iterations and
// the envelope's near-contacts), |vz| < 1e-3 m/s at rest.
TEST_P(AxialBody, RestsOnASlopeWithoutSliding) {
  const real r = 0.1, x0 = 0.3, angle = kPi / 6;
  const Vec3 normal{std::sin(angle), 0, std::cos(angle)};
  BodySet scene;
  const std::uint32_t plane = add_fixed_body(scene, 1, 0.0);
  scene.add_plane(plane, {0, 0, 0}, normal);
  const std::uint32_t b = add_axial_rod(scene, 2, {x0, 0.05, 0.5}, {1, 0, 0, 0}, 2, {0.01, 0.03, 0.03});
  RigidBodySystem system(scene, settings_for(GetParam(), 0.01));
  step_n(system, 1500);
  const BodyState s = system.body_state(b);
  const real rest = (r - std::sin(angle) * (x0 - 0.2)) / std::cos(angle);
  EXPECT_EQ(s.position.x, x0);
  EXPECT_EQ(s.position.y, 0.05);
  EXPECT_NEAR(s.position.z, rest, 1e-4);
  EXPECT_LT(std::abs(s.velocity.z), 1e-3);
  EXPECT_EQ(s.orientation.w, 1.0);
  EXPECT_GT(system.last_stats().contacts, 0u);
}

INSTANTIATE_TEST_SUITE_P(Methods, AxialBody, kBothMethods, method_name);

}  // namespace
}  // namespace trackcosim::gpu::test
