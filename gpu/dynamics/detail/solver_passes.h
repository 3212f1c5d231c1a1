#pragma once
// The contact-parallel passes of the CCP solvers, written once for both constraint blocks
// (contacts and bilateral rows, constraint_blocks.h). Each pass walks fixed chunks of
// constraints (deterministic_sum.h) and returns the chunk sums it was asked for.
//
// Residual (docs/ccp.md): for impulses gamma with constraint velocities g = D^T v(gamma) + b,
//   R(gamma) = sqrt( sum_i |gamma_i - Pi_i(gamma_i - eta_i g_i)|^2 / eta_i^2  /  rows ),
// the projected-gradient step of each constraint expressed as a velocity [m/s]: zero exactly
// at a solution of the CCP, and for an active contact the RMS speed at which it still violates
// non-penetration or sticking. Both methods report this same number.
// Only .cu files include this header.

#include "gpu/dynamics/detail/constraint_blocks.h"
#include "gpu/dynamics/detail/deterministic_sum.h"

namespace trackcosim::gpu::detail {

TRACKCOSIM_HD inline ConeImpulse as_impulse(Vec3 v) { return {v.x, v.y, v.z}; }
TRACKCOSIM_HD inline Vec3 as_vec(ConeImpulse g) { return {g.n, g.u, g.w}; }
TRACKCOSIM_HD inline ConeImpulse axpy(real a, ConeImpulse x, ConeImpulse y) {
  return {a * x.n + y.n, a * x.u + y.u, a * x.w + y.w};
}
TRACKCOSIM_HD inline real dot(ConeImpulse a, ConeImpulse b) { return a.n * b.n + a.u * b.u + a.w * b.w; }
TRACKCOSIM_HD inline ConeImpulse minus(ConeImpulse a, ConeImpulse b) { return {a.n - b.n, a.u - b.u, a.w - b.w}; }

/// Distributed solves skip the constraints another rank solves (mask 0). The mask is read into a
/// local before each loop so that the single-rank case (no mask) costs one test per chunk.
TRACKCOSIM_HD inline bool skipped(const std::uint8_t* mask, std::size_t i) { return mask != nullptr && mask[i] == 0; }

/// Squared residual term of one constraint (see the file comment).
template <class Block>
TRACKCOSIM_HD real residual_term(const Block& blk, std::size_t i, ConeImpulse gamma, ConeImpulse g) {
  const real eta = blk.step_scale(i);
  if (eta <= 0) return 0;  // a row between two bodies the solver cannot move
  const ConeImpulse r = minus(gamma, blk.project(i, axpy(-eta, g, gamma)));
  return dot(r, r) / (eta * eta);
}

/// Writes D gamma of every constraint of the block into its reduction slots.
template <class Block>
void scatter_all(const Block& blk, Vec3View gamma) {
  for_each_item(
      blk.count,
      [=] TRACKCOSIM_HD(std::size_t first, std::size_t last, ChunkSums&) {
        const std::uint8_t* mask = blk.solve_mask();
        for (std::size_t i = first; i < last; ++i)
          if (!skipped(mask, i)) blk.scatter(i, blk.frame(i), as_impulse(gamma.get(i)));
      });
}

/// s[0]: sum of squared residual terms at gamma (bodies must hold v(gamma)).
template <class Block>
ChunkSums residual_pass(const Block& blk, const BodyView& bodies, Vec3View gamma,
                        thrust::device_vector<ChunkSums>& partials) {
  return for_each_chunk(
      blk.count,
      [=] TRACKCOSIM_HD(std::size_t first, std::size_t last, ChunkSums& sums) {
        const std::uint8_t* mask = blk.solve_mask();
        for (std::size_t i = first; i < last; ++i)
          if (!skipped(mask, i)) {
            const ConeImpulse g = as_impulse(gamma.get(i));
            sums.s[0] += residual_term(blk, i, g, blk.velocity(i, blk.frame(i), bodies, g));
          }
      },
      partials);
}

/// One projected Jacobi sweep (Tasora-Negrut algorithm 1, step 6):
///   gamma_i <- lambda Pi_i(gamma_i - omega eta_i (D_i^T v + b_i)) + (1 - lambda) gamma_i,
/// with omega eta_i precomputed per constraint (jacobi_step, see SolverSettings),
/// then D_i gamma_i into the slots. With kResidual, s[0]: squared residual terms of the
/// incoming gamma (a second projection per contact, skipped when nobody asks).
template <bool kResidual, class Block>
ChunkSums jacobi_sweep(const Block& blk, const BodyView& bodies, Vec3View gamma, real lambda,
                       thrust::device_vector<ChunkSums>& partials) {
  const auto sweep = [=] TRACKCOSIM_HD(std::size_t first, std::size_t last, ChunkSums& sums) {
        const std::uint8_t* mask = blk.solve_mask();
        for (std::size_t i = first; i < last; ++i) {
          if (skipped(mask, i)) continue;
          const auto f = blk.frame(i);
          const ConeImpulse old = as_impulse(gamma.get(i));
          const ConeImpulse g = blk.velocity(i, f, bodies, old);
          if (kResidual) sums.s[0] += residual_term(blk, i, old, g);
          const ConeImpulse step = blk.project(i, axpy(-blk.jacobi_step[i], g, old));
          const ConeImpulse next = axpy(lambda, minus(step, old), old);
          gamma.set(i, as_vec(next));
          blk.scatter(i, f, next);
        }
      };
  if (!kResidual) {
    for_each_item(blk.count, sweep);  // nothing to add up: no reduction, no wait on a GPU
    return ChunkSums{};
  }
  return for_each_chunk(blk.count, sweep, partials);
}

/// APGD gradient step from y (bodies hold v(y)): next = Pi(y - t g(y)), scattered. Sums:
/// s0 = |next - y|^2, s1 = g.(next - gamma) (the restart test), s2 = (next - y)^T E (next - y)
/// (compliant contacts' part of the curvature).
template <class Block>
ChunkSums apgd_gradient_step(const Block& blk, const BodyView& bodies_at_y, Vec3View y, Vec3View gamma, Vec3View next,
                             real t, thrust::device_vector<ChunkSums>& partials) {
  return for_each_chunk(
      blk.count,
      [=] TRACKCOSIM_HD(std::size_t first, std::size_t last, ChunkSums& sums) {
        const std::uint8_t* mask = blk.solve_mask();
        for (std::size_t i = first; i < last; ++i) {
          if (skipped(mask, i)) continue;
          const auto f = blk.frame(i);
          const ConeImpulse yi = as_impulse(y.get(i));
          const ConeImpulse g = blk.velocity(i, f, bodies_at_y, yi);
          const ConeImpulse n = blk.project(i, axpy(-t, g, yi));
          next.set(i, as_vec(n));
          blk.scatter(i, f, n);
          const ConeImpulse d = minus(n, yi);
          sums.s[0] += dot(d, d);
          sums.s[1] += dot(g, minus(n, as_impulse(gamma.get(i))));
          sums.s[2] += blk.compliance_curvature(i, d);
        }
      },
      partials);
}

/// After an accepted APGD step (bodies hold v(next)): the new extrapolation point
/// y = next + beta (next - gamma), and with kResidual s0 = squared residual terms of next. Without
/// it the pass reads only the three impulse arrays, not the bodies or the constraint geometry:
/// the residual of an iteration nobody reads is not worth a second walk over the contacts.
template <bool kResidual, class Block>
ChunkSums apgd_residual_and_extrapolate(const Block& blk, const BodyView& bodies, Vec3View next, Vec3View gamma,
                                        Vec3View y, real beta, thrust::device_vector<ChunkSums>& partials) {
  const auto pass = [=] TRACKCOSIM_HD(std::size_t first, std::size_t last, ChunkSums& sums) {
        const std::uint8_t* mask = blk.solve_mask();
        for (std::size_t i = first; i < last; ++i) {
          if (skipped(mask, i)) continue;
          const ConeImpulse n = as_impulse(next.get(i));
          if (kResidual) sums.s[0] += residual_term(blk, i, n, blk.velocity(i, blk.frame(i), bodies, n));
          y.set(i, as_vec(axpy(beta, minus(n, as_impulse(gamma.get(i))), n)));
        }
      };
  if (!kResidual) {
    for_each_item(blk.count, pass);
    return ChunkSums{};
  }
  return for_each_chunk(blk.count, pass, partials);
}

}  // namespace trackcosim::gpu::detail
