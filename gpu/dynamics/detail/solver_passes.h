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

/// One projected Jacobi update of constraint i (Tasora-Negrut algorithm 1, step 6):
///   gamma_i <- lambda Pi_i(gamma_i - omega eta_i (D_i^T v + b_i)) + (1 - lambda) gamma_i,
/// with omega eta_i precomputed per constraint (jacobi_step, see SolverSettings), then
/// D_i gamma_i into the slots. With kResidual, returns the squared residual term of the incoming
/// gamma (a second projection, skipped when nobody asks), else 0.
template <bool kResidual, class Block>
TRACKCOSIM_HD real jacobi_update(const Block& blk, std::size_t i, const typename Block::Frame& f,
                                 const BodyView& bodies, Vec3View gamma, real lambda) {
  const ConeImpulse old = as_impulse(gamma.get(i));
  const ConeImpulse g = blk.velocity(i, f, bodies, old);
  const real residual = kResidual ? residual_term(blk, i, old, g) : real(0);
  const ConeImpulse step = blk.project(i, axpy(-blk.jacobi_step[i], g, old));
  const ConeImpulse next = axpy(lambda, minus(step, old), old);
  gamma.set(i, as_vec(next));
  blk.scatter(i, f, next);
  return residual;
}

/// One projected Jacobi sweep over a block (jacobi_update for each constraint). With kResidual,
/// s[0]: the squared residual terms of the incoming gamma.
template <bool kResidual, class Block>
ChunkSums jacobi_sweep(const Block& blk, const BodyView& bodies, Vec3View gamma, real lambda,
                       thrust::device_vector<ChunkSums>& partials) {
  const auto sweep = [=] TRACKCOSIM_HD(std::size_t first, std::size_t last, ChunkSums& sums) {
        const std::uint8_t* mask = blk.solve_mask();
        for (std::size_t i = first; i < last; ++i)
          if (!skipped(mask, i)) {
            const real residual = jacobi_update<kResidual>(blk, i, blk.frame(i), bodies, gamma, lambda);
            if (kResidual) sums.s[0] += residual;
          }
      };
  if (!kResidual) {
    for_each_item(blk.count, sweep);  // nothing to add up: no reduction, no wait on a GPU
    return ChunkSums{};
  }
  return for_each_chunk(blk.count, sweep, partials);
}

/// The contacts' Jacobi sweep with their rolling rows (rolling.count is 0 or the contacts'
/// count): the rows of contact i are updated right after it, bounded by its new normal impulse,
/// while its bodies, normal and slots are still in cache, instead of in a second walk over
/// every contact. The same bits as jacobi_sweep over the contacts, then over the rolling rows:
/// the bodies' velocities do not change within a sweep, a row reads only its own contact's
/// impulse, and its torque is added to the slots its contact has just written. With kResidual,
/// s[0]: the squared residual terms, a contact's and its rows' added first (one exact addition
/// per contact; any grouping of the terms gives the same rank-independent bits).
template <bool kResidual>
ChunkSums jacobi_sweep_with_rolling(const ContactBlockView& contacts, Vec3View contact_gamma,
                                    const RollingBlockView& rolling, Vec3View rolling_gamma, const BodyView& bodies,
                                    real lambda, thrust::device_vector<ChunkSums>& partials) {
  const auto sweep = [=] TRACKCOSIM_HD(std::size_t first, std::size_t last, ChunkSums& sums) {
        const std::uint8_t* mask = contacts.solve_mask();
        const bool with_rolling = rolling.count != 0;
        for (std::size_t i = first; i < last; ++i) {
          if (skipped(mask, i)) continue;
          const auto f = contacts.frame(i);
          real residual = jacobi_update<kResidual>(contacts, i, f, bodies, contact_gamma, lambda);
          if (with_rolling)
            residual += jacobi_update<kResidual>(rolling, i, rolling.frame(i, f), bodies, rolling_gamma, lambda);
          if (kResidual) sums.s[0] += residual;
        }
      };
  if (!kResidual) {
    for_each_item(contacts.count, sweep);
    return ChunkSums{};
  }
  return for_each_chunk(contacts.count, sweep, partials);
}

/// The APGD impulse arrays of one block: the current iterate gamma_k, the one before it
/// gamma_{k-1}, and the new one the step writes.
struct ApgdImpulseViews {
  Vec3View gamma, previous, next;
};

/// APGD's extrapolation point y = gamma_k + beta (gamma_k - gamma_{k-1}) of constraint i, formed
/// where the gradient step reads it instead of being stored by a pass of its own (the same
/// bits). The first iteration has no gamma_{k-1}: y = gamma_0.
struct Extrapolation {
  real beta = 0;
  bool first = true;
};
TRACKCOSIM_HD inline ConeImpulse extrapolated(const ApgdImpulseViews& impulses, std::size_t i, Extrapolation e) {
  const ConeImpulse gamma = as_impulse(impulses.gamma.get(i));
  if (e.first) return gamma;
  return axpy(e.beta, minus(gamma, as_impulse(impulses.previous.get(i))), gamma);
}

/// What one constraint's APGD step adds to the iteration's two sums (s[0], s[1]): its part of
/// the line search's excess, (next - y)^T E (next - y) - L |next - y|^2 (the compliant contacts'
/// curvature less L times the step's squared length in the step's metric; the step is accepted
/// when the bodies' curvature plus the sum of these is not positive), and g.(next - gamma), the
/// restart test. Two exact sums per constraint instead of three (each costs about 5 ns a term,
/// math/exact_sum.h): L is known before the pass.
struct ApgdStepTerms {
  real excess, restart;
  TRACKCOSIM_HD ApgdStepTerms& operator+=(const ApgdStepTerms& o) {
    excess += o.excess;
    restart += o.restart;
    return *this;
  }
};

/// Adds a constraint's (or a contact's and its rolling rows') terms to the pass's sums.
TRACKCOSIM_HD inline void add_terms(ChunkSums& sums, const ApgdStepTerms& t) {
  sums.s[0] += t.excess;
  sums.s[1] += t.restart;
}

/// APGD gradient step of constraint i from y (bodies hold v(y)) with t = 1 / lipschitz:
/// next = Pi(y - t g(y)) (or its preconditioned form, the block's gradient_step), scattered;
/// returns its ApgdStepTerms.
template <class Block>
TRACKCOSIM_HD ApgdStepTerms apgd_gradient_update(const Block& blk, std::size_t i, const typename Block::Frame& f,
                                                 const BodyView& bodies_at_y, const ApgdImpulseViews& impulses,
                                                 Extrapolation e, real t, real lipschitz) {
  const ConeImpulse yi = extrapolated(impulses, i, e);
  const ConeImpulse g = blk.velocity(i, f, bodies_at_y, yi);
  const ConeImpulse n = blk.gradient_step(i, yi, g, t);
  impulses.next.set(i, as_vec(n));
  blk.scatter(i, f, n);
  const ConeImpulse d = minus(n, yi);
  return {blk.compliance_curvature(i, d) - lipschitz * blk.step_norm2(i, d),
          dot(g, minus(n, as_impulse(impulses.gamma.get(i))))};
}

/// APGD gradient step of a block (apgd_gradient_update for each constraint): sums in s[0..1].
template <class Block>
ChunkSums apgd_gradient_step(const Block& blk, const BodyView& bodies_at_y, ApgdImpulseViews impulses,
                             Extrapolation e, real t, real lipschitz, thrust::device_vector<ChunkSums>& partials) {
  return for_each_chunk(
      blk.count,
      [=] TRACKCOSIM_HD(std::size_t first, std::size_t last, ChunkSums& sums) {
        const std::uint8_t* mask = blk.solve_mask();
        for (std::size_t i = first; i < last; ++i)
          if (!skipped(mask, i))
            add_terms(sums, apgd_gradient_update(blk, i, blk.frame(i), bodies_at_y, impulses, e, t, lipschitz));
      },
      partials);
}

/// The contacts' APGD gradient step with their rolling rows (rolling.count is 0 or the
/// contacts' count), each row right after its contact: the reasons and the same bits as
/// jacobi_sweep_with_rolling. Sums in s[0..1], a contact's terms and its rows' added first; the
/// rows' discs are bounded by contact_impulses.next.
inline ChunkSums apgd_gradient_step_with_rolling(const ContactBlockView& contacts, ApgdImpulseViews contact_impulses,
                                                 const RollingBlockView& rolling, ApgdImpulseViews rolling_impulses,
                                                 const BodyView& bodies_at_y, Extrapolation e, real t, real lipschitz,
                                                 thrust::device_vector<ChunkSums>& partials) {
  return for_each_chunk(
      contacts.count,
      [=] TRACKCOSIM_HD(std::size_t first, std::size_t last, ChunkSums& sums) {
        const std::uint8_t* mask = contacts.solve_mask();
        const bool with_rolling = rolling.count != 0;
        for (std::size_t i = first; i < last; ++i) {
          if (skipped(mask, i)) continue;
          const auto f = contacts.frame(i);
          ApgdStepTerms terms = apgd_gradient_update(contacts, i, f, bodies_at_y, contact_impulses, e, t, lipschitz);
          if (with_rolling)
            terms += apgd_gradient_update(rolling, i, rolling.frame(i, f), bodies_at_y, rolling_impulses, e, t,
                                          lipschitz);
          add_terms(sums, terms);
        }
      },
      partials);
}

}  // namespace trackcosim::gpu::detail
