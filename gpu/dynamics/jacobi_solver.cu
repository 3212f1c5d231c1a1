// Projected Jacobi for the cone complementarity problem, Tasora-Negrut sec. 3 eq. (12)-(14)
// and algorithm 1 steps 6-10:
//   gamma_i^{r+1} = lambda Pi_i(gamma_i^r - omega eta_i (D_i^T v^r + b_i)) + (1 - lambda) gamma_i^r,
//   eta_i = 3 / trace(D_i^T M^-1 D_i),   v^{r+1} = v_free + M^-1 sum_i D_i gamma_i^{r+1}.
// One sweep over the contacts (and bilateral rows) writes each constraint's impulse into its
// reduction slots; one pass over the bodies sums them (body_reduction.h). Every contact reads
// the velocities of the previous iterate, which is what makes the sweep parallel.

#include <cmath>

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

#include "gpu/dynamics/detail/ccp_solver.h"
#include "gpu/dynamics/detail/solver_passes.h"
#include "gpu/memory/execution.h"

namespace trackcosim::gpu::detail {

void apply_impulses(DeviceBodies& bodies, SolverWorkspace& ws) {
  scatter_all(ws.contact_view(), ws.contact_impulse.gamma.view());
  scatter_all(ws.row_view(), ws.row_impulse.gamma.view());
  scatter_all(ws.rolling_view(ws.contact_impulse.gamma.view()), ws.rolling_impulse.gamma.view());
  reduce_velocities(bodies, ws);
}

ExactSum residual_sum(DeviceBodies& bodies, SolverWorkspace& ws) {
  const BodyView b = bodies.view();
  return residual_pass(ws.contact_view(), b, ws.contact_impulse.gamma.view(), ws.partials).s[0] +
         residual_pass(ws.row_view(), b, ws.row_impulse.gamma.view(), ws.partials).s[0] +
         residual_pass(ws.rolling_view(ws.contact_impulse.gamma.view()), b, ws.rolling_impulse.gamma.view(),
                       ws.partials)
             .s[0];
}

real current_residual(DeviceBodies& bodies, SolverWorkspace& ws) { return residual_rms(ws, residual_sum(bodies, ws)); }

namespace {

/// One sweep of every block. The rolling rows come after the contacts, whose new normal
/// impulses bound them.
/// The contacts with their rolling rows (each row bounded by its contact's new normal impulse),
/// then the bilateral rows; with kResidual, the blocks' squared residual terms in that order.
template <bool kResidual>
ExactSum sweep_all_blocks(const BodyView& b, SolverWorkspace& ws, const SolverSettings& settings) {
  const ChunkSums c = jacobi_sweep_with_rolling<kResidual>(
      ws.contact_view(), ws.contact_impulse.gamma.view(), ws.rolling_view(ws.contact_impulse.gamma.view()),
      ws.rolling_impulse.gamma.view(), b, settings.jacobi_lambda, ws.partials);
  const ChunkSums r =
      jacobi_sweep<kResidual>(ws.row_view(), b, ws.row_impulse.gamma.view(), settings.jacobi_lambda, ws.partials);
  return c.s[0] + r.s[0];
}

}  // namespace

namespace {

/// Writes the Jacobi step of every constraint of one block.
template <class Block>
void write_jacobi_steps(const Block& blk, real* out, const BodyView& b, const std::uint32_t* start, real omega,
                        bool split, const std::uint32_t* global_count, std::uint32_t factor) {
  thrust::for_each(par(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(blk.count),
                   [=] TRACKCOSIM_HD(std::size_t i) {
                     const auto f = blk.frame(i);
                     // A ghost's own list misses the contacts other ranks hold: use the global count.
                     auto count = [=](std::uint32_t j) {
                       return factor * (global_count != nullptr ? global_count[j] : start[j + 1] - start[j]);
                     };
                     std::uint32_t shared = 1;
                     if (split) {
                       if (b.dynamic(f.a)) shared = count(f.a);
                       if (b.dynamic(f.b) && count(f.b) > shared) shared = count(f.b);
                     }
                     out[i] = omega * blk.step_scale(i) / static_cast<real>(shared);
                   });
}

}  // namespace

void prepare_jacobi_steps(DeviceBodies& bodies, SolverWorkspace& ws, const SolverSettings& settings) {
  const BodyView b = bodies.view();
  const std::uint32_t* start = raw(ws.slot_lists.start);
  const std::uint32_t* global_count = ws.distributed.active() ? raw(ws.distributed.constraint_count) : nullptr;
  // With rolling rows each contact is two constraints on its bodies (in the same slots).
  const std::uint32_t factor = ws.rolling.size() > 0 ? 2 : 1;
  ws.rows.jacobi_step.resize(ws.rows.size());
  write_jacobi_steps(ws.contact_view(), raw(ws.contacts.jacobi_step), b, start, settings.jacobi_omega,
                     settings.jacobi_split_by_contacts, global_count, factor);
  write_jacobi_steps(ws.row_view(), raw(ws.rows.jacobi_step), b, start, settings.jacobi_omega,
                     settings.jacobi_split_by_contacts, global_count, factor);
  write_jacobi_steps(ws.rolling_view(ws.contact_impulse.gamma.view()), raw(ws.rolling.jacobi_step), b, start,
                     settings.jacobi_omega, settings.jacobi_split_by_contacts, global_count, factor);
}

SolveResult solve_jacobi(DeviceBodies& bodies, SolverWorkspace& ws, const SolverSettings& settings) {
  SolveResult result;
  apply_impulses(bodies, ws);
  const BodyView b = bodies.view();
  // A sweep measures the residual of the impulses it starts from (after `it` sweeps) when it is
  // read: every sweep for the history, every residual_interval-th one for a tolerance.
  const auto measures = [&](std::uint32_t it) {
    return settings.record_residuals || (settings.tolerance > 0 && it % settings.residual_interval == 0);
  };
  for (std::uint32_t it = 0; it < settings.max_iterations; ++it) {
    const bool measured = measures(it);
    const ExactSum sum = measured ? sweep_all_blocks<true>(b, ws, settings) : sweep_all_blocks<false>(b, ws, settings);
    reduce_velocities(bodies, ws);
    ++result.iterations;
    ++result.passes;
    const real incoming = measured ? residual_rms(ws, sum) : real(0);
    if (settings.record_residuals && it > 0) result.history.push_back(incoming);
    if (ws.progress != nullptr) ws.progress->iteration_done(it);
    if (measured && settings.tolerance > 0 && incoming < settings.tolerance) break;
  }
  result.residual = current_residual(bodies, ws);
  if (settings.record_residuals) result.history.push_back(result.residual);
  return result;
}

}  // namespace trackcosim::gpu::detail
