#pragma once
// Internal: Eigen aliases and conversions between the public Vec3/Quat and Eigen types.

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "math/vec3.h"

namespace trackcosim::vehicle::detail {

using V3 = Eigen::Vector3d;
using M3 = Eigen::Matrix3d;
using V6 = Eigen::Matrix<double, 6, 1>;  // [linear; angular]
using M6 = Eigen::Matrix<double, 6, 6>;  // [linear; angular] x [linear; angular]

inline V3 to_eigen(Vec3 v) { return {v.x, v.y, v.z}; }
inline Vec3 to_vec3(const V3& v) { return {v.x(), v.y(), v.z()}; }
inline Eigen::Quaterniond to_eigen(Quat q) { return Eigen::Quaterniond(q.w, q.x, q.y, q.z); }
inline Quat to_quat(const Eigen::Quaterniond& q) { return {q.w(), q.x(), q.y(), q.z()}; }
/// A row's Jacobian block for one body: [linear; angular].
inline V6 stack(const V3& lin, const V3& ang) {
  V6 out;
  out << lin, ang;
  return out;
}

/// Two unit vectors completing n to a right-handed orthonormal basis; t1 follows `hint`
/// projected onto the plane normal to n when that projection is not degenerate.
inline void tangent_basis(const V3& n, const V3& hint, V3& t1, V3& t2) {
  V3 t = hint - n.dot(hint) * n;
  if (t.squaredNorm() < 1e-12) {
    t = (std::abs(n.x()) < 0.9 ? V3::UnitX() : V3::UnitY());
    t -= n.dot(t) * n;
  }
  t1 = t.normalized();
  t2 = n.cross(t1);
}

}  // namespace trackcosim::vehicle::detail
