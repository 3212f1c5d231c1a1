// Preconditioned APGD (SolverSettings::preconditioned, docs/ccp.md "Preconditioned APGD"): each
// constraint's gradient step is scaled by the inverse of its own diagonal of N, and the cone
// projection and line search use that metric. Claims:
//   - it solves the same problem: solved far past convergence, both iterations give the same
//     bodies (all three constraint blocks: contacts, rolling rows, compliant contacts);
//   - it converges faster where the rows differ in scale: on a bed with rolling rows and
//     compliant contacts (normal rows 3.5 times less stiff than tangent rows for spheres) it
//     reaches a lower residual in the same number of iterations once warm-started (every step
//     but a fresh system's first, as in a co-simulation);
//   - off, nothing changes (the rest of the suite, whose bits it keeps).
// Residuals are the solver's own (StepStats::residual), the same definition for both.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "tests/gpu/dynamics_test_scenes.h"

namespace trackcosim::gpu::test {
namespace {

/// The heavy vehicles' grain law: rolling rows and compliant contacts, 2 ms.
StepSettings gravel_settings(bool preconditioned, std::uint32_t iterations) {
  StepSettings s = settings_for(SolverMethod::Apgd, 0.002);
  s.step_size = 2e-3;
  s.solver.max_iterations = iterations;
  s.solver.rolling_friction = 0.5;
  s.solver.contact_stiffness = 1e6;
  s.solver.contact_damping = 60;
  s.solver.preconditioned = preconditioned;
  return s;
}

// The settled bed, one step from the same state by both iterations with 3,000 iterations each
// (both residuals below 1e-6 m/s). Assert: every grain's velocity agrees within 1e-4 m/s (0.5% of
// the g h = 0.02 m/s a step of gravity adds), and the floor's vertical impulse within 1e-4 of
// itself: the preconditioner changes the path, not the solution. (A residual of 1e-7 m/s still
// leaves 1e-5 m/s in the slowest modes of a packed bed, and the spin about a contact normal,
// which no row resists, is held only by the tangent rows: the comparison is not to the bit.)
TEST(PreconditionedApgd, SolvesTheSameProblem) {
  const BodySet bed = settled_small_bed();
  StepSettings plain_settings = gravel_settings(false, 3000), scaled_settings = gravel_settings(true, 3000);
  plain_settings.solver.record_residuals = scaled_settings.solver.record_residuals = false;
  RigidBodySystem plain(bed, plain_settings), scaled(bed, scaled_settings);
  plain.step();
  scaled.step();
  std::printf("  residual after 3000 iterations: plain %.3e, preconditioned %.3e m/s\n",
              plain.last_stats().residual, scaled.last_stats().residual);
  ASSERT_LT(plain.last_stats().residual, 1e-6);
  ASSERT_LT(scaled.last_stats().residual, 1e-6);
  const std::vector<BodyState> a = plain.body_states(), b = scaled.body_states();
  ASSERT_EQ(a.size(), b.size());
  real largest = 0;
  for (std::size_t i = 0; i < a.size(); ++i) largest = std::max(largest, length(a[i].velocity - b[i].velocity));
  const real floor_plain = impulse_given_by(plain.contact_impulses(), kBedFloorGid).z;
  const real floor_scaled = impulse_given_by(scaled.contact_impulses(), kBedFloorGid).z;
  std::printf("  largest velocity difference %.3e m/s; floor impulse %.9f and %.9f N s\n", largest, floor_plain,
              floor_scaled);
  EXPECT_LT(largest, 1e-4);
  EXPECT_NEAR(floor_scaled, floor_plain, 1e-4 * floor_plain);
}

// The settled bed with the gravel law, 20 steps at 50 iterations by each. Assert: from the
// second step on (warm-started, as every step of a run but its first), the preconditioned
// residual is lower at every step, and by at least a factor 2 at the last. (Measured: about the
// same on the cold first step, 3-5 times lower after it.)
TEST(PreconditionedApgd, LowerResidualInTheSameIterationsOnAGravelBed) {
  const BodySet bed = settled_small_bed();
  RigidBodySystem plain(bed, gravel_settings(false, 50)), scaled(bed, gravel_settings(true, 50));
  for (int k = 0; k < 20; ++k) {
    plain.step();
    scaled.step();
    if (k % 5 == 0 || k == 19)
      std::printf("  step %2d: residual plain %.3e, preconditioned %.3e m/s\n", k, plain.last_stats().residual,
                  scaled.last_stats().residual);
    if (k > 0) EXPECT_LT(scaled.last_stats().residual, plain.last_stats().residual) << "step " << k;
  }
  EXPECT_LT(2 * scaled.last_stats().residual, plain.last_stats().residual);
}

}  // namespace
}  // namespace trackcosim::gpu::test
