// The solver's convergence claims, measured on settled scenes restarted in fresh systems (so
// that both sides of a comparison start from the same bodies and the same contacts):
//   - warm start: starting from last step's impulses reaches a given residual in fewer
//     iterations than starting from zero;
//   - APGD reaches a lower residual than projected Jacobi in the same number of iterations;
//   - APGD evaluates the residual of the last iterate only, unless something reads it every
//     iteration, and that changes neither the answer nor the reported residual;
//   - with a tolerance measured every residual_interval-th iteration only, both methods stop at
//     the first measured iteration below it, with the same iterates as a fixed iteration count.
// Residuals are the solver's own (StepStats::residual, docs/ccp.md), compared within one
// definition, so their unit does not matter here; the numbers are printed for the docs.

#include <gtest/gtest.h>

#include <cstdio>
#include <numeric>
#include <stdexcept>

#include "tests/gpu/dynamics_test_scenes.h"

namespace trackcosim::gpu::test {
namespace {

/// Ten spheres (r = 0.05 m) in a vertical column on the floor, settled for 500 steps.
BodySet settled_stack(SolverMethod method) {
  const real r = 0.05;
  BodySet scene;
  add_floor(scene, 1, 0.5);
  for (int i = 0; i < 10; ++i) add_sphere_body(scene, 10 + i, {0, 0, r + i * 2 * r}, r, 1.0, 0.5);
  RigidBodySystem system(scene, settings_for(method, 0.1 * r));
  step_n(system, 500);
  return with_states(scene, system.body_states());
}

class WarmStart : public ::testing::TestWithParam<SolverMethod> {};

// Tolerance: 1e-4 of the residual after the first cold iteration on this state (probed once).
// Both systems step 20 times from the settled state; step 1 is cold for both (a fresh system has
// nothing to warm-start from), so iterations are summed over steps 2..20. Assert: the warm
// total is smaller, and the cold run did reach the tolerance (a run that hits max_iterations
// would make the comparison meaningless).
TEST_P(WarmStart, SettledStackNeedsFewerIterations) {
  const BodySet scene = settled_stack(GetParam());
  StepSettings probe_settings = settings_for(GetParam(), 0.005);
  probe_settings.solver.record_residuals = true;
  RigidBodySystem probe(scene, probe_settings);
  probe.step();
  ASSERT_FALSE(probe.last_stats().residual_history.empty());
  const real tolerance = 1e-4 * probe.last_stats().residual_history.front();

  const auto iterations = [&](bool warm) {
    StepSettings s = settings_for(GetParam(), 0.005);
    s.solver.tolerance = tolerance;
    s.solver.max_iterations = 20000;
    s.solver.warm_start = warm;
    RigidBodySystem system(scene, s);
    system.step();
    std::uint32_t total = 0, worst = 0;
    for (int k = 1; k < 20; ++k) {
      system.step();
      total += system.last_stats().iterations;
      worst = std::max(worst, system.last_stats().iterations);
    }
    return std::pair{total, worst};
  };
  const auto [warm, warm_worst] = iterations(true);
  const auto [cold, cold_worst] = iterations(false);
  std::printf("  tolerance %.3e: iterations over steps 2..20 warm %u (worst step %u), cold %u (worst step %u)\n",
              tolerance, warm, warm_worst, cold, cold_worst);
  EXPECT_LT(cold_worst, 20000u) << "the cold solve never reached the tolerance";
  EXPECT_LT(warm, cold);
}

INSTANTIATE_TEST_SUITE_P(Methods, WarmStart, kBothMethods, method_name);

// A bed of 5 x 5 x 6 = 150 spheres settled for 300 steps, then one step from that state by each method from
// zero impulses (a fresh system), 100 iterations, tolerance 0, residual recorded per iteration.
// Assert: APGD's residual after 100 iterations is below Jacobi's (the target:
// "fewer iterations than Jacobi for APGD at the same residual on a settled bed").
TEST(ApgdVersusJacobi, LowerResidualAfterTheSameIterationsOnASettledBed) {
  const BodySet scene = settled_small_bed();

  const auto history = [&](SolverMethod method) {
    StepSettings s = settings_for(method, 0.002);
    s.solver.record_residuals = true;
    RigidBodySystem system(scene, s);
    system.step();
    return system.last_stats().residual_history;
  };
  const std::vector<real> jacobi = history(SolverMethod::Jacobi), apgd = history(SolverMethod::Apgd);
  ASSERT_EQ(jacobi.size(), 100u);
  ASSERT_EQ(apgd.size(), 100u);
  std::printf("  iteration  jacobi      apgd\n");
  for (const std::size_t i : {0, 9, 24, 49, 99})
    std::printf("  %9zu  %.4e  %.4e\n", i + 1, jacobi[i], apgd[i]);
  EXPECT_LT(apgd.back(), jacobi.back());
}

// The same 150-sphere bed settled for 300 steps, then with rolling rows and compliant contacts
// (all three constraint blocks) 30 steps at 50 APGD iterations, once with the residual recorded every iteration and
// once without (then only the last iterate's residual is computed). Assert: the same bodies, bit
// for bit, at every step, and the reported residual is the recorded history's last entry, exactly
// (so the last iterate's residual is still computed) and not zero.
TEST(ApgdResidual, EvaluatedOnlyForTheLastIterateWithTheSameAnswer) {
  const BodySet bed = settled_small_bed();
  const auto settings = [](bool record) {
    StepSettings s = settings_for(SolverMethod::Apgd, 0.002);
    s.solver.max_iterations = 50;
    s.solver.rolling_friction = 0.5;
    s.solver.contact_stiffness = 1e6;
    s.solver.contact_damping = 60;
    s.solver.record_residuals = record;
    return s;
  };
  RigidBodySystem recorded(bed, settings(true)), plain(bed, settings(false));
  for (int k = 0; k < 30; ++k) {
    recorded.step();
    plain.step();
    const std::vector<BodyState> a = recorded.body_states(), b = plain.body_states();
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      ASSERT_EQ(a[i].velocity.z, b[i].velocity.z) << "body " << i << " at step " << k;
      ASSERT_EQ(a[i].position.x, b[i].position.x) << "body " << i << " at step " << k;
      ASSERT_EQ(a[i].angular_velocity.y, b[i].angular_velocity.y) << "body " << i << " at step " << k;
    }
    const StepStats& r = recorded.last_stats();
    const StepStats& p = plain.last_stats();
    ASSERT_EQ(r.residual_history.size(), 50u);
    EXPECT_TRUE(p.residual_history.empty());
    EXPECT_EQ(p.residual, r.residual_history.back()) << "at step " << k;
    EXPECT_EQ(p.residual, r.residual) << "at step " << k;
    EXPECT_GT(p.residual, 0) << "at step " << k;
  }
}

class ResidualInterval : public ::testing::TestWithParam<SolverMethod> {};

// The 150-sphere bed from zero impulses, one step of at most 100 iterations: first with the
// residual recorded per iteration (history[k-1]: the residual after k iterations), then with a
// tolerance measured every 7th iteration. The tolerance is the residual after 30 iterations, so
// that a solver measuring every iteration would stop elsewhere than one measuring every 7th
// (checked first: otherwise the test could not tell them apart). APGD measures after iterations
// 7, 14, .. and stops there; Jacobi measures the impulses a sweep starts from (after 0, 7, 14, ..
// sweeps) and stops after that sweep. Assert: the iteration count expected from the history, the
// reported residual the history's at that count (below the tolerance for APGD), and the same
// bodies, bit for bit, as the same number of iterations without a tolerance; and the passes
// (StepStats::passes) are the iterations for Jacobi, at least as many for APGD.
TEST_P(ResidualInterval, StopsAtTheFirstMeasuredIterationBelowTheTolerance) {
  const BodySet bed = settled_small_bed();
  const auto settings = [&](std::uint32_t iterations, real tolerance, std::uint32_t interval, bool record) {
    StepSettings s = settings_for(GetParam(), 0.002);
    s.solver.max_iterations = iterations;
    s.solver.tolerance = tolerance;
    s.solver.residual_interval = interval;
    s.solver.record_residuals = record;
    return s;
  };
  RigidBodySystem recorded(bed, settings(100, 0, 1, true));
  recorded.step();
  const std::vector<real> history = recorded.last_stats().residual_history;
  ASSERT_EQ(history.size(), 100u);

  const real tolerance = history[29];
  const std::uint32_t interval = 7;
  const bool apgd = GetParam() == SolverMethod::Apgd;
  // The iteration count at which a solver measuring after every `every`-th iteration stops.
  const auto expected_stop = [&](std::uint32_t every) -> std::uint32_t {
    for (std::uint32_t k = 1; k < 100; ++k)
      if (k % every == 0 && history[k - 1] < tolerance) return apgd ? k : k + 1;
    return 100;
  };
  const std::uint32_t stop = expected_stop(interval);
  ASSERT_NE(stop, expected_stop(1)) << "this bed cannot tell an interval of 7 from 1";
  ASSERT_LT(stop, 100u);

  RigidBodySystem measured(bed, settings(100, tolerance, interval, false));
  measured.step();
  EXPECT_EQ(measured.last_stats().iterations, stop);
  // Every iteration is a pass; APGD adds one for each rejected line-search trial.
  if (apgd) EXPECT_GE(measured.last_stats().passes, stop);
  else EXPECT_EQ(measured.last_stats().passes, stop);
  EXPECT_EQ(measured.last_stats().residual, history[stop - 1]);
  if (apgd) EXPECT_LT(measured.last_stats().residual, tolerance);  // Jacobi stops one sweep later
  std::printf("  tolerance %.4e: measured every iteration it stops at %u, every %u-th at %u\n", tolerance,
              expected_stop(1), interval, stop);

  RigidBodySystem fixed(bed, settings(stop, 0, 1, false));
  fixed.step();
  const std::vector<BodyState> a = measured.body_states(), b = fixed.body_states();
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].velocity.z, b[i].velocity.z) << "body " << i;
    ASSERT_EQ(a[i].angular_velocity.x, b[i].angular_velocity.x) << "body " << i;
  }
  EXPECT_EQ(measured.last_stats().residual, fixed.last_stats().residual);
}

INSTANTIATE_TEST_SUITE_P(Methods, ResidualInterval, kBothMethods, method_name);

/// Counts the calls and checks that iterations arrive in order from 0 within each solve.
class IterationCounter final : public SolverProgress {
 public:
  void iteration_done(std::uint32_t iteration) override {
    EXPECT_EQ(iteration, next_) << "iterations out of order";
    next_ = iteration + 1;
    ++calls;
  }
  void new_solve() { next_ = 0; }
  std::uint32_t calls = 0;

 private:
  std::uint32_t next_ = 0;
};

class Progress : public ::testing::TestWithParam<SolverMethod> {};

// The 150-sphere bed, 20 steps with a tolerance (so that solves stop early at different
// counts), once with a SolverProgress installed and once without. Assert: the progress hears
// every iteration of every solve, in order (its calls per step are StepStats::iterations), and
// the bodies are the same bit for bit (it changes nothing the solver computes). Then an
// exception thrown from the progress (a co-simulation's lost peer) leaves the solve.
TEST_P(Progress, HearsEveryIterationAndChangesNothing) {
  const BodySet bed = settled_small_bed();
  StepSettings s = settings_for(GetParam(), 0.002);
  s.solver.tolerance = 1e-5;
  s.solver.residual_interval = 3;
  RigidBodySystem heard(bed, s), plain(bed, s);
  IterationCounter counter;
  heard.set_progress(&counter);
  std::uint32_t iterations = 0;
  for (int k = 0; k < 20; ++k) {
    counter.new_solve();
    heard.step();
    plain.step();
    iterations += heard.last_stats().iterations;
    ASSERT_EQ(counter.calls, iterations) << "at step " << k;
  }
  EXPECT_GT(iterations, 20u);
  const std::vector<BodyState> a = heard.body_states(), b = plain.body_states();
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].position.z, b[i].position.z) << "body " << i;
    ASSERT_EQ(a[i].velocity.x, b[i].velocity.x) << "body " << i;
  }

  struct LostPeer final : SolverProgress {
    void iteration_done(std::uint32_t) override { throw std::runtime_error("the peer is gone"); }
  } lost;
  heard.set_progress(&lost);
  EXPECT_THROW(heard.step(), std::runtime_error);
}

INSTANTIATE_TEST_SUITE_P(Methods, Progress, kBothMethods, method_name);

}  // namespace
}  // namespace trackcosim::gpu::test
