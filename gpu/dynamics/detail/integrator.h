#pragma once
// Body-parallel kernels around the solve (Tasora-Negrut algorithm 1, steps 3, 5 and 11):
// free velocities from forces, the semi-implicit Euler position update, kinetic energy.
// Only .cu files include this header.

#include "gpu/dynamics/detail/deterministic_sum.h"
#include "gpu/dynamics/detail/device_bodies.h"

namespace trackcosim::gpu::detail {

/// Dynamic bodies: v_free = v + h (F / m + g),  w_free = w + h I^-1 (tau - w x I w)
/// (the gyroscopic term explicit). Kinematic bodies keep their prescribed velocity, fixed ones 0.
/// Axial bodies: vz + h (F_z / m + g_z), wz + h tau_z / I_zz, nothing else (detail/device_bodies.h).
void compute_free_velocities(DeviceBodies& bodies, real h, Vec3 gravity);

/// x += h v;  q <- exp(h w / 2) q, normalised (exact rotation for the step's constant w).
void integrate_positions(DeviceBodies& bodies, real h);

/// sum over dynamic bodies of 1/2 m v^2 + 1/2 w . I w, independent of the thread count.
real kinetic_energy(DeviceBodies& bodies, thrust::device_vector<ChunkSums>& partials);

}  // namespace trackcosim::gpu::detail
