// Accelerated projected gradient descent (APGD) for the cone complementarity problem: Nesterov's
// method with an adaptive step (backtracking on the Lipschitz estimate L) and gradient restart,
// as in Mazhar, Heyn, Tasora, Negrut (2015), "Using Nesterov's method to accelerate multibody
// dynamics with friction and contact", the solver of current Chrono. It minimises
//   f(gamma) = 1/2 gamma^T N gamma + r^T gamma,   N = D^T M^-1 D,  r = D^T v_free + b,
// over the product of friction cones, matrix-free:
//   next = Pi(y - t grad f(y)),  grad f(y) = D^T v(y) + b,  v(y) = v_free + M^-1 D y;
//   accept when f(next) <= f(y) + grad.(next - y) + L/2 |next - y|^2, else L <- 2L;
//   theta' = (-theta^2 + theta sqrt(theta^2 + 4)) / 2,  beta = theta (1 - theta) / (theta^2 + theta'),
//   y <- next + beta (next - gamma);  restart (beta = 0, theta' = 1) when grad.(next - gamma) > 0;
//   L <- 0.9 L after each accepted step.
// Compliant contacts (contact_compliance.h) add E = diag(eps) to N: grad f = D^T v + b + E y,
// and their share of the curvature, d_n^T E d_n, is summed by the gradient pass.
// Two things keep an iteration near two Jacobi sweeps and the line search exact. Since f is
// quadratic, f(next) - f(y) - grad.(next - y) = 1/2 (next - y)^T N (next - y) = 1/2 d^T M d with
// d = v(next) - v(y) per body, so the sufficient-decrease test is  d^T M d <= L |next - y|^2,
// a body sum out of the gather that is needed anyway: no second product with N, and no
// difference of two large objective values (which loses every digit once v_free is large,
// e.g. a fast-sliding body). And v(y) is extrapolated per body (v is affine in gamma) instead of
// being scattered again. The returned impulses are the last accepted iterate.
// Memory traffic (docs/ccp.md, "Data layout"): y is not stored but formed by the gradient step
// from gamma_k and gamma_{k-1}, which it reads anyway for the restart test; each contact's
// rolling rows are stepped right after it (solver_passes.h); and the residual, a walk over every
// constraint with its bodies, is evaluated only when read (the last iterate, or every one under a
// tolerance or a recorded history). None of this changes a bit of the iterates.

#include <cmath>
#include <limits>
#include <utility>

#include "gpu/dynamics/detail/ccp_solver.h"
#include "gpu/dynamics/detail/solver_passes.h"
#include "gpu/memory/execution.h"

#include <thrust/extrema.h>
#include <thrust/transform_reduce.h>

namespace trackcosim::gpu::detail {
namespace {

/// v_y = v + beta (v - v_prev) for every body, and v_prev = v.
void extrapolate_bodies(const BodyView& b, Vec3View v_prev, Vec3View w_prev, Vec3View v_y, Vec3View w_y, real beta,
                        std::size_t n) {
  for_each_item(
      n,
      [=] TRACKCOSIM_HD(std::size_t first, std::size_t last, ChunkSums&) {
        for (std::size_t j = first; j < last; ++j) {
          const Vec3 v = b.velocity.get(j), w = b.angular_velocity.get(j);
          v_y.set(j, v + beta * (v - v_prev.get(j)));
          w_y.set(j, w + beta * (w - w_prev.get(j)));
          v_prev.set(j, v);
          w_prev.set(j, w);
        }
      });
}

ApgdImpulseViews impulse_views(BlockVectors& impulses) {
  return {impulses.gamma.view(), impulses.previous.view(), impulses.next.view()};
}

/// A first Lipschitz estimate: the largest diagonal block of N has eigenvalues up to its trace
/// 3 / eta_i; the line search corrects it upwards within a few trials when coupling makes it low.
real initial_lipschitz(SolverWorkspace& ws) {
  real smallest_eta = 0;
  bool any = false;
  for (const auto* eta : {&ws.contacts.eta, &ws.rows.eta, &ws.rolling.eta}) {
    if (eta->empty()) continue;
    const real m = read_element(*eta, static_cast<std::size_t>(thrust::min_element(par(), eta->begin(), eta->end()) - eta->begin()));
    smallest_eta = any ? std::min(smallest_eta, m) : m;
    any = true;
  }
  if (ws.distributed.active()) {  // every rank must start from the same L
    smallest_eta = global_min(ws, any ? smallest_eta : std::numeric_limits<real>::infinity());
    any = std::isfinite(smallest_eta);
  }
  return any && smallest_eta > 0 ? real(1) / smallest_eta : real(1);
}

}  // namespace

SolveResult solve_apgd(DeviceBodies& bodies, SolverWorkspace& ws, const SolverSettings& settings) {
  SolveResult result;
  const std::size_t nb = bodies.size();
  for (DeviceVec3* v : {&ws.v_prev, &ws.w_prev, &ws.v_y, &ws.w_y}) v->resize(nb);
  const BodyView b = bodies.view();
  BodyView at_y = b;
  at_y.velocity = ws.v_y.view();
  at_y.angular_velocity = ws.w_y.view();

  // gamma_0 = y_0 = warm start (already projected), and v(gamma_0).
  apply_impulses(bodies, ws);
  Extrapolation extrapolation;  // y_0 = gamma_0
  extrapolate_bodies(b, ws.v_prev.view(), ws.w_prev.view(), ws.v_y.view(), ws.w_y.view(), 0, nb);
  const VelocityReference at_y_velocities{ws.v_y.view(), ws.w_y.view(), true};

  // Preconditioned, every diagonal entry of the scaled N is 1 (the tangent pairs' on average).
  real lipschitz = apgd_preconditioned(settings) ? real(1) : initial_lipschitz(ws);
  real theta = 1;
  // The residual over all ranks is measured when something reads it then: the history (every
  // iteration), a tolerance (every residual_interval-th) and the last iterate (returned). Each
  // measurement is one allreduce, taken on every rank at the same iterations.
  const auto residual_read_after = [&](std::uint32_t it) {
    return settings.record_residuals || it + 1 == settings.max_iterations ||
           (settings.tolerance > 0 && (it + 1) % settings.residual_interval == 0);
  };
  for (std::uint32_t it = 0; it < settings.max_iterations; ++it) {
    ChunkSums step{};
    for (int trial = 0; trial < 60; ++trial) {
      const real t = 1 / lipschitz;
      // The contacts with their rolling rows (each row bounded by its contact's new normal
      // impulse), then the bilateral rows; each block's sums added in that order.
      const ChunkSums c = apgd_gradient_step_with_rolling(
          ws.contact_view(), impulse_views(ws.contact_impulse), ws.rolling_view(ws.contact_impulse.next.view()),
          impulse_views(ws.rolling_impulse), at_y, extrapolation, t, lipschitz, ws.partials);
      const ChunkSums r = apgd_gradient_step(ws.row_view(), at_y, impulse_views(ws.row_impulse), extrapolation, t,
                                             lipschitz, ws.partials);
      for (int k = 0; k < kSumSlots; ++k) step.s[k] = c.s[k] + r.s[k];
      // Accepted when d^T (N + E) d <= L |next - y|^2: the bodies' part of the curvature, from the
      // velocity change, plus the constraints' excess (s0: E's part less L |next - y|^2) is not
      // positive. The step's sums ride in the velocity sum's allreduce (summed over the ranks
      // there); they are exact, so every rank count takes the same decisions here and below.
      const real excess = (reduce_velocities(bodies, ws, at_y_velocities, &step).s[0] + step.s[0]).value();
      ++result.passes;
      if (excess <= 0) break;
      lipschitz *= 2;
    }

    real theta_next = (-theta * theta + theta * std::sqrt(theta * theta + 4)) / 2;
    real beta = theta * (1 - theta) / (theta * theta + theta_next);
    if (step.s[1].value() > 0) {  // the momentum points uphill: restart
      beta = 0;
      theta_next = 1;
    }
    extrapolate_bodies(b, ws.v_prev.view(), ws.w_prev.view(), ws.v_y.view(), ws.w_y.view(), beta, nb);
    // gamma_{k-1} <- gamma_k <- next; the next step forms y from these two and beta.
    for (BlockVectors* block : {&ws.contact_impulse, &ws.row_impulse, &ws.rolling_impulse}) {
      std::swap(block->previous, block->gamma);
      std::swap(block->gamma, block->next);
    }
    extrapolation = {beta, false};
    // The residual of the new iterate (bodies hold v(gamma) here), when it is read.
    const bool measured = residual_read_after(it);
    if (measured) result.residual = residual_rms(ws, residual_sum(bodies, ws));
    theta = theta_next;
    lipschitz *= real(0.9);
    ++result.iterations;
    if (settings.record_residuals) result.history.push_back(result.residual);
    if (ws.progress != nullptr) ws.progress->iteration_done(it);
    if (measured && settings.tolerance > 0 && result.residual < settings.tolerance) break;
  }
  if (result.iterations == 0) result.residual = current_residual(bodies, ws);
  return result;
}

}  // namespace trackcosim::gpu::detail
