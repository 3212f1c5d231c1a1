#pragma once
// Narrow phase: exact signed distance, normal and surface points for the shape pairs the
// terrain needs. Every function is a pure function of its (ordered) inputs, so a pair gives
// bitwise the same contact whichever thread or bin computes it.
//
// Each function returns the contact seen from the first shape ("A"): normal from A to B,
// point_a on A, point_b on B, distance < 0 for penetration.

#include <cmath>

#include "gpu/collision/shape_scene.h"
#include "math/host_device.h"
#include "math/vec3.h"

namespace trackcosim::gpu::detail {

struct ContactGeometry {
  real distance;
  Vec3 normal;
  Vec3 point_a;
  Vec3 point_b;
};

TRACKCOSIM_HD inline ContactGeometry flipped(const ContactGeometry& g) {
  return {g.distance, -g.normal, g.point_b, g.point_a};
}

/// Sphere A vs sphere B. Concentric spheres have no defined direction; +Z is used.
TRACKCOSIM_HD inline ContactGeometry sphere_sphere(Vec3 ca, real ra, Vec3 cb, real rb) {
  const Vec3 d = cb - ca;
  const real len = length(d);
  const Vec3 n = len > 0 ? (real(1) / len) * d : Vec3{0, 0, 1};
  return {len - ra - rb, n, ca + ra * n, cb - rb * n};
}

/// Plane (A) vs sphere (B): the plane bounds the solid half-space behind its normal.
TRACKCOSIM_HD inline ContactGeometry plane_sphere(const PlaneShape& p, Vec3 c, real r) {
  const real h = dot(c - p.point, p.normal);
  return {h - r, p.normal, c - h * p.normal, c - r * p.normal};
}

/// Box (A) vs sphere (B). Outside: towards the closest point on the box. Centre inside: out
/// through the nearest face (the direction of least penetration).
TRACKCOSIM_HD inline ContactGeometry box_sphere(const BoxShape& b, Vec3 c, real r) {
  const Vec3 local = rotate_inverse(b.orientation, c - b.center);
  const real p[3] = {local.x, local.y, local.z};
  const real h[3] = {b.half_extents.x, b.half_extents.y, b.half_extents.z};
  real q[3];
  bool inside = true;
  for (int a = 0; a < 3; ++a) {
    q[a] = p[a] < -h[a] ? -h[a] : (p[a] > h[a] ? h[a] : p[a]);
    inside = inside && q[a] == p[a];
  }
  Vec3 n_local;
  real distance;
  if (!inside) {
    const Vec3 delta{p[0] - q[0], p[1] - q[1], p[2] - q[2]};
    const real len = length(delta);
    n_local = (real(1) / len) * delta;
    distance = len - r;
  } else {
    int axis = 0;
    real depth = h[0] - std::fabs(p[0]);
    for (int a = 1; a < 3; ++a) {
      const real d = h[a] - std::fabs(p[a]);
      if (d < depth) {
        depth = d;
        axis = a;
      }
    }
    const real sign = p[axis] < 0 ? real(-1) : real(1);
    real e[3] = {0, 0, 0};
    e[axis] = sign;
    n_local = {e[0], e[1], e[2]};
    q[axis] = sign * h[axis];
    distance = -depth - r;
  }
  const Vec3 n = rotate(b.orientation, n_local);
  const Vec3 on_box = b.center + rotate(b.orientation, Vec3{q[0], q[1], q[2]});
  return {distance, n, on_box, c - r * n};
}

}  // namespace trackcosim::gpu::detail
