#pragma once
// Bodies in device memory, one vector per field (Tasora-Negrut fig. 7 keeps the same data in
// float4 columns). Hot fields that the solver streams every iteration (velocities, inverse
// mass and inertia, orientation) are apart from the bookkeeping. Only .cu files include this.

#include <cstdint>

#include <thrust/device_vector.h>

#include "gpu/dynamics/body_set.h"
#include "gpu/dynamics/detail/soa_view.h"

namespace trackcosim::gpu::detail {

/// One kinematic body's pose and velocity as uploaded together (RigidBodySystem::set_kinematic_states).
struct KinematicState {
  std::uint32_t index;
  Vec3 position;
  Quat orientation;
  Vec3 velocity, angular_velocity;
};

/// What the solver kernels read and write of the bodies, as raw pointers.
struct BodyView {
  Vec3View position;
  QuatView orientation;
  Vec3View velocity, angular_velocity;            ///< solver iterate v(gamma) = v_free + M^-1 D gamma
  Vec3View free_velocity, free_angular_velocity;  ///< v + h M^-1 f, the start of every solve
  const real* inv_mass;                           ///< 0 for fixed and kinematic bodies
  Vec3View inv_inertia;                           ///< body-frame principal, 0 when not dynamic
  // (apply_inv_mass / apply_inv_inertia: the only way the solver applies M^-1, axial bodies included)
  const std::uint8_t* motion;
  const real* mass;
  Vec3View inertia;  ///< body-frame principal moments

  // Axial bodies (Motion::Axial) move in the subspace v = vz e_z, w = wz e_z of the world frame.
  // With P = [e_z 0; 0 e_z] the generalised mass of that subspace is P^T M P = diag(m, I_zz),
  //   I_zz = e_z^T I_world e_z = e_z^T R diag(I) R^T e_z,
  // and an impulse (p, l) changes the velocity by P (P^T M P)^-1 P^T (p, l):
  //   dv = (0, 0, p_z / m),   dw = (0, 0, l_z / I_zz).
  // I_zz does not change while the body turns about e_z (R_z^T e_z = e_z), and the gyroscopic
  // torque w x I w has no z part when w is along e_z, so the free velocity and every solver update
  // stay in the subspace; the velocities are projected once more where they are formed (free
  // velocities, upload) so that a state given with other components starts in it. The motion
  // byte, already read by every body pass, tells which bodies: no per-body array more.
  TRACKCOSIM_HD bool axial(std::size_t i) const { return motion[i] == static_cast<std::uint8_t>(Motion::Axial); }
  /// The velocity's part the body may have: v itself, or (0, 0, v.z) for an axial body.
  TRACKCOSIM_HD Vec3 restrict_velocity(std::size_t i, Vec3 v) const { return axial(i) ? Vec3{0, 0, v.z} : v; }
  /// m^-1 p (projected for an axial body).
  TRACKCOSIM_HD Vec3 apply_inv_mass(std::size_t i, Vec3 p) const {
    return axial(i) ? Vec3{0, 0, inv_mass[i] * p.z} : inv_mass[i] * p;
  }
  /// The trace of m^-1 over a contact's three orthonormal directions: 3/m, or 1/m for an axial
  /// body (n_z^2 + u_z^2 + w_z^2 = 1).
  TRACKCOSIM_HD real inv_mass_trace(std::size_t i) const { return axial(i) ? inv_mass[i] : 3 * inv_mass[i]; }
  /// I^-1 x in the world frame: R diag(inv_inertia) R^T x; (0, 0, x.z / I_zz) for an axial body.
  TRACKCOSIM_HD Vec3 apply_inv_inertia(std::size_t i, Vec3 x) const {
    if (axial(i)) return Vec3{0, 0, x.z / apply_inertia(i, Vec3{0, 0, 1}).z};
    const Vec3 d = inv_inertia.get(i);
    if (d.x == d.y && d.y == d.z) return d.x * x;  // spheres: skip the two rotations
    const Quat q = orientation.get(i);
    const Vec3 b = rotate_inverse(q, x);
    return rotate(q, Vec3{d.x * b.x, d.y * b.y, d.z * b.z});
  }
  /// I x in the world frame: R diag(inertia) R^T x.
  TRACKCOSIM_HD Vec3 apply_inertia(std::size_t i, Vec3 x) const {
    const Vec3 d = inertia.get(i);
    if (d.x == d.y && d.y == d.z) return d.x * x;
    const Quat q = orientation.get(i);
    const Vec3 b = rotate_inverse(q, x);
    return rotate(q, Vec3{d.x * b.x, d.y * b.y, d.z * b.z});
  }
  /// Distributed solves: ghosts take their velocity from their owner, not from a local sum.
  const std::uint8_t* ghost = nullptr;

  /// Moved by the solver: Dynamic or Axial (gpu::is_dynamic).
  TRACKCOSIM_HD bool dynamic(std::size_t i) const {
    return motion[i] == static_cast<std::uint8_t>(Motion::Dynamic) || motion[i] == static_cast<std::uint8_t>(Motion::Axial);
  }
  TRACKCOSIM_HD bool summed_here(std::size_t i) const { return dynamic(i) && (ghost == nullptr || ghost[i] == 0); }
};

struct DeviceBodies {
  thrust::device_vector<GlobalId> gid;
  DeviceVec3 position;
  DeviceQuat orientation;
  DeviceVec3 velocity, angular_velocity, free_velocity, free_angular_velocity;
  thrust::device_vector<real> mass, inv_mass, friction;
  DeviceVec3 inertia, inv_inertia;
  thrust::device_vector<std::uint8_t> motion;
  DeviceVec3 force, torque;
  thrust::device_vector<std::uint8_t> ghost;  ///< empty unless the solve is distributed

  std::size_t size() const { return gid.size(); }
  void upload(const BodySet& bodies);
  /// Body j becomes (these ++ added)[source[j]] (index_ops.h's merge_sorted gives `source`):
  /// kept bodies keep their device state, nothing crosses to the host.
  void regroup(const DeviceBodies& added, const thrust::device_vector<std::uint32_t>& source);

  BodyView view() {
    return {position.view(),      orientation.view(),    velocity.view(),      angular_velocity.view(),
            free_velocity.view(), free_angular_velocity.view(), raw(inv_mass), inv_inertia.view(),
            raw(motion),          raw(mass),             inertia.view(),
            ghost.empty() ? nullptr : raw(ghost)};
  }
};

}  // namespace trackcosim::gpu::detail
