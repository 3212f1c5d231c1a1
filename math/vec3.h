#pragma once
// Small vector and quaternion types shared by kernels and host code. Plain aggregates so that
// they are trivially copyable into device memory and onto the wire.

#include <cmath>
#include <type_traits>

#include "math/host_device.h"
#include "math/real.h"

namespace trackcosim {

struct Vec3 {
  real x, y, z;
};
static_assert(std::is_trivially_copyable_v<Vec3> && sizeof(Vec3) == 3 * sizeof(real));

TRACKCOSIM_HD inline Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
TRACKCOSIM_HD inline Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
TRACKCOSIM_HD inline Vec3 operator-(Vec3 a) { return {-a.x, -a.y, -a.z}; }
TRACKCOSIM_HD inline Vec3 operator*(real s, Vec3 a) { return {s * a.x, s * a.y, s * a.z}; }
TRACKCOSIM_HD inline Vec3 operator*(Vec3 a, real s) { return {s * a.x, s * a.y, s * a.z}; }
TRACKCOSIM_HD inline real dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
TRACKCOSIM_HD inline Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
TRACKCOSIM_HD inline real length(Vec3 a) { return std::sqrt(dot(a, a)); }

/// Unit quaternion (w, x, y, z) rotating body-frame vectors into the world frame.
struct Quat {
  real w, x, y, z;
};
static_assert(std::is_trivially_copyable_v<Quat> && sizeof(Quat) == 4 * sizeof(real));

/// v' = q v q*, written out as v + 2 w (u x v) + 2 u x (u x v) with u the vector part.
TRACKCOSIM_HD inline Vec3 rotate(Quat q, Vec3 v) {
  const Vec3 u{q.x, q.y, q.z};
  const Vec3 t = 2 * cross(u, v);
  return v + q.w * t + cross(u, t);
}

/// Hamilton product: the rotation b followed by a.
TRACKCOSIM_HD inline Quat multiply(Quat a, Quat b) {
  return {a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
          a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}

TRACKCOSIM_HD inline Vec3 rotate_inverse(Quat q, Vec3 v) { return rotate(Quat{q.w, -q.x, -q.y, -q.z}, v); }

}  // namespace trackcosim
