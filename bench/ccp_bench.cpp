// bench/ccp: one time step of a settling granular bed, N = 10^4 .. 10^6 spheres (r = 0.01 m,
// mu = 0.5, h = 1e-3 s, 100 solver iterations, tolerance 0), for 1 and 2 OpenMP threads and
// both solver methods, split into the step phases of StepPhase. Prints figures only; it never
// fails on time.
//
//   ccp [--sizes 10000,100000,1000000] [--threads 1,2] [--methods jacobi,apgd]
//       [--warmup-steps K] [--steps S] [--iterations I] [--rolling MU_R] [--residual-interval M]
//       [--preconditioned] [--residual-curve]
//
// The bed starts as a simple cubic lattice at rest on the floor of a box with four walls:
// vertical spacing 2r (+1e-4 r), horizontal 2.02 r with +-0.01 r jitter, envelope 0.05 r, so
// every lattice neighbour is a contact from the first step (about 3 per sphere) and the warm-up
// steps only let the load settle in and the warm start fill. Each case builds a fresh system,
// runs K warm-up steps, then times S steps. The table gives the time of each StepPhase per step,
// ns per contact-iteration (solve seconds / (contacts x iterations)), the solver's own count of
// bytes per contact-iteration (gpu/dynamics/solver_traffic.h), the bandwidth that implies, and
// the bytes copied between host and device per timed step (gpu/memory/transfer_count.h). The
// CUDA build runs one case per size and method and prints threads as 0 (--threads is ignored).
// Each case ends with one parseable line:
//   ccp N=<n> threads=<t> method=<m> contacts=<c> ns_per_contact_iteration=<x> step_seconds=<s>
//       bytes_per_contact_iteration=<b> transfer_bytes_per_step=<x> passes_per_iteration=<p>
// (passes: sweeps over the constraints, APGD's rejected line-search trials included).
// --residual-interval M measures the residual every M-th iteration against a tolerance it never
// reaches (solver.residual_interval), so that the step time shows what those measurements cost;
// without it the residual is measured once, after the last iteration.
// --preconditioned runs APGD preconditioned (solver.preconditioned, docs/ccp.md): the cost of an
// iteration with the scaled step and metric projection; its lines name the method apgd_pre.
// --residual-curve instead prints, for the first size, `iteration,jacobi_residual,apgd_residual`
// for one step of both methods from the same warmed-up state (fresh systems: both start from
// zero impulses).

#include <omp.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bench_args.h"
#include "gpu/dynamics/body_set.h"
#include "gpu/dynamics/rigid_body_system.h"
#include "gpu/dynamics/solver_traffic.h"
#include "gpu/memory/transfer_count.h"

using namespace trackcosim;
using namespace trackcosim::gpu;
using trackcosim::bench::flag;
using trackcosim::bench::has;
using trackcosim::bench::split;

namespace {

constexpr real kRadius = 0.01, kDensity = 2500, kFriction = 0.5;

BodySet settling_bed(std::size_t n) {
  const real r = kRadius, dx = 2.02 * r, dz = 2 * r * (1 + 1e-4);
  const auto side = static_cast<std::size_t>(std::ceil(std::cbrt(static_cast<double>(n))));
  const real far = (side - 1) * dx;
  BodySet set;
  set.gid.reserve(n + 2);
  BodyDesc wall;
  wall.motion = Motion::Fixed;
  wall.friction = kFriction;
  wall.gid = 0;
  const std::uint32_t floor = set.add_body(wall);
  set.add_plane(floor, {0, 0, 0}, {0, 0, 1});
  wall.gid = 1;
  const std::uint32_t walls = set.add_body(wall);
  set.add_plane(walls, {-1.03 * r, 0, 0}, {1, 0, 0});
  set.add_plane(walls, {far + 1.03 * r, 0, 0}, {-1, 0, 0});
  set.add_plane(walls, {0, -1.03 * r, 0}, {0, 1, 0});
  set.add_plane(walls, {0, far + 1.03 * r, 0}, {0, -1, 0});

  std::mt19937_64 rng(42);
  std::uniform_real_distribution<real> jitter(-0.01 * r, 0.01 * r);
  BodyDesc d;
  d.mass = kDensity * 4 / 3 * 3.14159265358979323846 * r * r * r;
  d.inertia = solid_sphere_inertia(d.mass, r);
  d.friction = kFriction;
  for (std::size_t i = 0; i < n; ++i) {
    d.gid = 2 + i;
    d.position = {real(i % side) * dx + jitter(rng), real((i / side) % side) * dx + jitter(rng),
                  r + real(i / (side * side)) * dz};
    set.add_sphere(set.add_body(d), {0, 0, 0}, r);
  }
  return set;
}

/// rolling: the heavy beds' rolling resistance (--rolling; a rolling row per contact, docs/ccp.md).
/// residual_interval > 0: the residual is measured every that many iterations (--residual-interval)
/// against a tolerance no solve reaches.
bool g_preconditioned = false;  ///< --preconditioned: every APGD case preconditioned

StepSettings bench_settings(SolverMethod method, std::uint32_t iterations, real rolling,
                            std::uint32_t residual_interval = 0) {
  StepSettings s;
  s.solver.preconditioned = g_preconditioned && method == SolverMethod::Apgd;
  s.solver.rolling_friction = rolling;
  s.step_size = 1e-3;
  s.collision.envelope = 0.05 * kRadius;
  s.solver.method = method;
  s.solver.max_iterations = iterations;
  s.solver.tolerance = residual_interval > 0 ? 1e-300 : 0;
  s.solver.residual_interval = std::max<std::uint32_t>(residual_interval, 1);
  return s;
}

const char* name_of(SolverMethod m) {
  if (m == SolverMethod::Jacobi) return "jacobi";
  return g_preconditioned ? "apgd_pre" : "apgd";
}

// ---- command line ----------------------------------------------------------------------------

std::vector<std::size_t> numbers(const char* text, const char* fallback) {
  std::vector<std::size_t> out;
  for (const std::string& s : split(text ? text : fallback)) out.push_back(std::strtoull(s.c_str(), nullptr, 10));
  return out;
}

std::vector<SolverMethod> methods(const char* text) {
  std::vector<SolverMethod> out;
  for (const std::string& s : split(text ? text : "jacobi,apgd")) {
    if (s == "jacobi") out.push_back(SolverMethod::Jacobi);
    else if (s == "apgd") out.push_back(SolverMethod::Apgd);
    else {
      std::fprintf(stderr, "ccp: --methods: unknown method '%s' (expected jacobi or apgd)\n", s.c_str());
      std::exit(2);
    }
  }
  return out;
}

// ---- the two modes ---------------------------------------------------------------------------

struct CaseResult {
  double contacts = 0, iterations = 0, passes = 0, step_seconds = 0, bodies = 0, transfer_per_step = 0;
  std::array<double, kStepPhaseCount> phase{};
};

CaseResult run_case(const BodySet& bed, SolverMethod method, std::uint32_t iterations, real rolling,
                    std::uint32_t residual_interval, std::size_t warmup, std::size_t steps) {
  RigidBodySystem system(bed, bench_settings(method, iterations, rolling, residual_interval));
  for (std::size_t k = 0; k < warmup; ++k) system.step();
  CaseResult r;
  r.bodies = double(bed.size());
  const TransferBytes before = transfer_bytes();
  for (std::size_t k = 0; k < steps; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    system.step();
    r.step_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / steps;
    const StepStats& s = system.last_stats();
    r.contacts += double(s.contacts) / steps;
    r.iterations += double(s.iterations) / steps;
    r.passes += double(s.passes) / steps;
    for (std::size_t p = 0; p < kStepPhaseCount; ++p) r.phase[p] += s.phase_seconds[p] / steps;
  }
  r.transfer_per_step = double((transfer_bytes() - before).total()) / double(std::max<std::size_t>(steps, 1));
  return r;
}

void print_header() {
  std::printf("%9s %3s %6s %9s %5s %9s", "N", "thr", "method", "contacts", "iters", "step_s");
  for (auto name : kStepPhaseNames) std::printf(" %9.9s", name.data());
  std::printf(" %8s %6s %6s %9s\n", "ns/c-it", "B/c-it", "GB/s", "xfer_B/st");
}

void residual_curve(const BodySet& bed, std::uint32_t iterations, real rolling, std::size_t warmup) {
  RigidBodySystem warm(bed, bench_settings(SolverMethod::Apgd, iterations, rolling));
  for (std::size_t k = 0; k < warmup; ++k) warm.step();
  BodySet state = bed;
  const std::vector<BodyState> states = warm.body_states();
  for (std::size_t i = 0; i < states.size(); ++i) {
    const BodyState& s = states[i];
    state.px[i] = s.position.x, state.py[i] = s.position.y, state.pz[i] = s.position.z;
    state.qw[i] = s.orientation.w, state.qx[i] = s.orientation.x, state.qy[i] = s.orientation.y;
    state.qz[i] = s.orientation.z;
    state.vx[i] = s.velocity.x, state.vy[i] = s.velocity.y, state.vz[i] = s.velocity.z;
    state.wx[i] = s.angular_velocity.x, state.wy[i] = s.angular_velocity.y, state.wz[i] = s.angular_velocity.z;
  }
  std::vector<real> curve[2];
  std::uint64_t contacts = 0;
  for (const SolverMethod m : {SolverMethod::Jacobi, SolverMethod::Apgd}) {
    StepSettings s = bench_settings(m, iterations, rolling);
    s.solver.record_residuals = true;
    RigidBodySystem system(state, s);
    system.step();
    curve[m == SolverMethod::Apgd] = system.last_stats().residual_history;
    contacts = system.last_stats().contacts;
  }
  std::printf("# residual per iteration, one step from the state after %zu warm-up steps, N=%zu, contacts=%llu\n",
              warmup, bed.size() - 2, static_cast<unsigned long long>(contacts));
  std::printf("iteration,jacobi_residual,apgd_residual\n");
  for (std::size_t i = 0; i < std::max(curve[0].size(), curve[1].size()); ++i)
    std::printf("%zu,%.6e,%.6e\n", i + 1, i < curve[0].size() ? curve[0][i] : NAN, i < curve[1].size() ? curve[1][i] : NAN);
}

}  // namespace

constexpr char kUsage[] =
    "usage: ccp [--sizes 10000,100000,1000000] [--threads 1,2] [--methods jacobi,apgd]\n"
    "    [--warmup-steps K] [--steps S] [--iterations I] [--rolling MU_R] [--residual-interval M] [--preconditioned]\n"
    "    [--residual-curve]\n"
    "One time step of a settling granular bed per case, split into its phases (bench/ccp_bench.cpp).\n";

int main(int argc, char** argv) {
  trackcosim::bench::help_exits(argc, argv, kUsage);
  const std::vector<std::size_t> sizes = numbers(flag(argc, argv, "--sizes"), "10000,100000,1000000");
#ifdef TRACKCOSIM_BENCH_ON_GPU
  const std::vector<std::size_t> thread_counts{0};  // the GPU build: OpenMP threads do not run the kernels
#else
  const std::vector<std::size_t> thread_counts = numbers(flag(argc, argv, "--threads"), "1,2");
#endif
  const std::vector<SolverMethod> method_list = methods(flag(argc, argv, "--methods"));
  const std::size_t warmup = numbers(flag(argc, argv, "--warmup-steps"), "3").at(0);
  const std::size_t steps = numbers(flag(argc, argv, "--steps"), "3").at(0);
  const auto iterations = static_cast<std::uint32_t>(numbers(flag(argc, argv, "--iterations"), "100").at(0));
  const char* rolling_text = flag(argc, argv, "--rolling");
  const real rolling = rolling_text ? std::strtod(rolling_text, nullptr) : 0;
  const auto residual_interval =
      static_cast<std::uint32_t>(numbers(flag(argc, argv, "--residual-interval"), "0").at(0));
  g_preconditioned = has(argc, argv, "--preconditioned");

  if (has(argc, argv, "--residual-curve")) {
    if (thread_counts.at(0) > 0) omp_set_num_threads(static_cast<int>(thread_counts.at(0)));
    residual_curve(settling_bed(sizes.at(0)), iterations, rolling, warmup);
    return 0;
  }

  std::printf("# settling bed, r = %.3f m, mu = %.1f, h = 1e-3 s, %u iterations, residual measured %s; %zu warm-up + "
              "%zu timed steps per case; seconds are per step\n",
              kRadius, kFriction, iterations,
              residual_interval > 0 ? ("every " + std::to_string(residual_interval) + " iterations").c_str()
                                    : "after the last iteration",
              warmup, steps);
  print_header();
  for (const std::size_t n : sizes) {
    const BodySet bed = settling_bed(n);
    for (const std::size_t threads : thread_counts) {
      if (threads > 0) omp_set_num_threads(static_cast<int>(threads));
      for (const SolverMethod method : method_list) {
        const CaseResult r = run_case(bed, method, iterations, rolling, residual_interval, warmup, steps);
        const double solve = r.phase[static_cast<std::size_t>(StepPhase::Solve)];
        const double ns = 1e9 * solve / (r.contacts * r.iterations);
        // The solver's own count of bytes per contact-iteration (gpu/dynamics/solver_traffic.h),
        // and the bandwidth that count implies at the measured speed.
        const double bytes = bytes_per_contact_iteration(method, r.contacts, r.bodies, g_preconditioned);
        std::printf("%9zu %3zu %6s %9.0f %5.0f %9.4f", n, threads, name_of(method), r.contacts, r.iterations,
                    r.step_seconds);
        for (const double p : r.phase) std::printf(" %9.4f", p);
        std::printf(" %8.2f %6.0f %6.2f %9.0f\n", ns, bytes, bytes / ns, r.transfer_per_step);
        std::printf("ccp N=%zu threads=%zu method=%s contacts=%.0f ns_per_contact_iteration=%.3f step_seconds=%.6f "
                    "bytes_per_contact_iteration=%.0f transfer_bytes_per_step=%.0f passes_per_iteration=%.3f\n",
                    n, threads, name_of(method), r.contacts, ns, r.step_seconds, bytes, r.transfer_per_step,
                    r.passes / r.iterations);
        std::fflush(stdout);
      }
    }
  }
  return 0;
}
