// Semi-implicit Euler (Tasora-Negrut eq. 5-8: velocities first, positions with the new
// velocities) and the force kernel.

#include "gpu/dynamics/detail/integrator.h"
#include "gpu/memory/execution.h"

#include <cmath>

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

namespace trackcosim::gpu::detail {
namespace {

/// Rotation by the world-frame rotation vector phi = h w, as a unit quaternion.
TRACKCOSIM_HD inline Quat rotation_quaternion(Vec3 phi) {
  const real angle = length(phi);
  if (angle < real(1e-12)) return {1, phi.x / 2, phi.y / 2, phi.z / 2};
  const real s = std::sin(angle / 2) / angle;
  return {std::cos(angle / 2), s * phi.x, s * phi.y, s * phi.z};
}

TRACKCOSIM_HD inline Quat normalised(Quat q) {
  const real inv = 1 / std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  return {q.w * inv, q.x * inv, q.y * inv, q.z * inv};
}

}  // namespace

void compute_free_velocities(DeviceBodies& bodies, real h, Vec3 gravity) {
  const BodyView b = bodies.view();
  const Vec3View force = bodies.force.view(), torque = bodies.torque.view();
  thrust::for_each(par(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(bodies.size()),
                   [=] TRACKCOSIM_HD(std::size_t j) {
                     Vec3 v = b.velocity.get(j), w = b.angular_velocity.get(j);
                     if (b.dynamic(j)) {
                       v = v + h * (b.inv_mass[j] * force.get(j) + gravity);
                       const Vec3 gyroscopic = cross(w, b.apply_inertia(j, w));
                       w = w + h * b.apply_inv_inertia(j, torque.get(j) - gyroscopic);
                       // Axial: vz + h (F_z / m + g_z) and wz + h tau_z / I_zz, the rest dropped.
                       v = b.restrict_velocity(j, v);
                       w = b.restrict_velocity(j, w);
                     }
                     b.free_velocity.set(j, v);
                     b.free_angular_velocity.set(j, w);
                   });
}

void integrate_positions(DeviceBodies& bodies, real h) {
  const BodyView b = bodies.view();
  thrust::for_each(par(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(bodies.size()),
                   [=] TRACKCOSIM_HD(std::size_t j) {
                     if (b.motion[j] == static_cast<std::uint8_t>(Motion::Fixed)) return;
                     b.position.set(j, b.position.get(j) + h * b.velocity.get(j));
                     const Quat dq = rotation_quaternion(h * b.angular_velocity.get(j));
                     b.orientation.set(j, normalised(multiply(dq, b.orientation.get(j))));
                   });
}

real kinetic_energy(DeviceBodies& bodies, thrust::device_vector<ChunkSums>& partials) {
  const BodyView b = bodies.view();
  return for_each_chunk(
             bodies.size(),
             [=] TRACKCOSIM_HD(std::size_t first, std::size_t last, ChunkSums& sums) {
               for (std::size_t j = first; j < last; ++j) {
                 if (!b.dynamic(j)) continue;
                 const Vec3 v = b.velocity.get(j), w = b.angular_velocity.get(j);
                 sums.s[0] += real(0.5) * (b.mass[j] * dot(v, v) + dot(w, b.apply_inertia(j, w)));
               }
             },
             partials)
      .s[0]
      .value();
}

}  // namespace trackcosim::gpu::detail
