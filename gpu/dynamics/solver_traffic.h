#pragma once
// Bytes one CCP iteration moves per contact, counted from the kernels (not measured): the
// number bench/ccp divides by to say how close a sweep runs to memory bandwidth. Each body
// field read by a contact is counted once per contact (no cache reuse), so this is the traffic
// of a cold cache; neighbouring contacts share bodies, which the hardware may serve from cache.
//
// Projected Jacobi, per contact (jacobi_sweep in detail/solver_passes.h):
//   body indices 2 x 4 B; normal, arm A, arm B 9 reals; eta, b, mu 3 reals;
//   gamma read + write 6 reals; v, w of both bodies 12 reals; two reduction slots written 12 reals
// per contact in the body pass (gather_velocities in detail/body_reduction.h):
//   two slot-list entries 2 x 4 B; two slots read 12 reals
// per body in the body pass: list start 4 B, motion 1 B; v_free 6, inverse mass and inertia 4,
//   velocity write 6 reals. (An axial body also reads its inertia and orientation, 7 reals, to
//   project M^-1: a handful of bodies in a bed, not counted.)
// APGD adds, per contact: gamma_k and gamma_{k-1} read (y is formed from them) and next written
// in the gradient step (+3 reals over a Jacobi sweep); no second contact pass (the residual, a
// walk with the bodies, is evaluated only in the last iteration unless a tolerance asks for it
// every iteration); per body the extrapolation of v(y) (v, v_prev read and written, v_y written,
// v_free, mass and inertia: 34 reals).
// Preconditioned APGD (SolverSettings::preconditioned) reads two reals more per contact, its
// step scales p_n and p_t.
// Rolling rows (not counted here) are stepped right after their contact, whose bodies, normal
// and slots are then in cache: their own arrays are 3 reals of geometry and 6 (Jacobi) or 9
// (APGD) of impulses.

#include <cstddef>

#include "gpu/dynamics/step_settings.h"
#include "math/real.h"

namespace trackcosim::gpu {

constexpr double kIndexBytes = 4;
constexpr double kRealBytes = sizeof(real);

constexpr double jacobi_contact_bytes() { return 2 * kIndexBytes + (9 + 3 + 6 + 12 + 12) * kRealBytes; }
constexpr double gather_contact_bytes() { return 2 * kIndexBytes + 12 * kRealBytes; }
constexpr double gather_body_bytes() { return kIndexBytes + 1 + 16 * kRealBytes; }
constexpr double apgd_contact_bytes() {
  return jacobi_contact_bytes() + 3 * kRealBytes + gather_contact_bytes();
}
constexpr double apgd_body_bytes() { return gather_body_bytes() + 34 * kRealBytes; }

/// Bytes per contact and iteration for a scene with the given contact and body counts.
constexpr double bytes_per_contact_iteration(SolverMethod method, double contacts, double bodies,
                                             bool preconditioned = false) {
  if (contacts <= 0) return 0;
  const double per_body = bodies / contacts;
  if (method == SolverMethod::Jacobi)
    return jacobi_contact_bytes() + gather_contact_bytes() + per_body * gather_body_bytes();
  return apgd_contact_bytes() + (preconditioned ? 2 * kRealBytes : 0) + per_body * apgd_body_bytes();
}

}  // namespace trackcosim::gpu
