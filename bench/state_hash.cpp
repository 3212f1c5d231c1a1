// bench/state_hash: is a build's step reproducible? A 4,096-sphere bed (16 x 16 x 16 in a box with
// frictional walls, r = 1 cm, h = 1 ms) falls, lands and settles for 60 steps, with Jacobi (40
// iterations, tolerance 0) and APGD (40 iterations, tolerance 1e-6); each case runs `--repeats`
// times (and, on the CPU build, for 1 and 2 OpenMP threads) and prints the hash of every body's
// exact state bits (RigidBodySystem::state_hash), the contact count, the final residual and the
// kinetic energy. Equal hashes within a build are the determinism the solver promises (the CPU
// and CUDA builds round differently, so their hashes differ from each other; the physics figures
// printed beside them should agree closely). Ends with one line:
//   state_hash reproducible=<yes|no>
//
//   state_hash [--repeats R]

#include <omp.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "bench/bench_args.h"
#include "gpu/dynamics/body_set.h"
#include "gpu/dynamics/rigid_body_system.h"

using namespace trackcosim;
using namespace trackcosim::gpu;

namespace {

BodySet falling_bed() {
  const real r = 0.01, s = 2.2 * r;
  const int side = 16, layers = 16;
  BodySet set;
  BodyDesc wall;
  wall.motion = Motion::Fixed;
  wall.friction = 0.5;
  wall.gid = 1;
  set.add_plane(set.add_body(wall), {0, 0, 0}, {0, 0, 1});
  wall.gid = 2;
  const real half = (side - 1) * s / 2 + s;
  const std::uint32_t walls = set.add_body(wall);
  set.add_plane(walls, {-half, 0, 0}, {1, 0, 0});
  set.add_plane(walls, {half, 0, 0}, {-1, 0, 0});
  set.add_plane(walls, {0, -half, 0}, {0, 1, 0});
  set.add_plane(walls, {0, half, 0}, {0, -1, 0});
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<real> jitter(-0.05 * r, 0.05 * r);
  BodyDesc d;
  d.mass = 2500 * 4.0 / 3 * 3.14159265358979323846 * r * r * r;
  d.inertia = solid_sphere_inertia(d.mass, r);
  d.friction = 0.5;
  GlobalId gid = 100;
  for (int k = 0; k < layers; ++k)
    for (int j = 0; j < side; ++j)
      for (int i = 0; i < side; ++i) {
        d.gid = gid++;
        d.position = {(i - 7.5) * s + (k % 2) * s / 2 + jitter(rng), (j - 7.5) * s + jitter(rng), 1.5 * r + k * 2.1 * r};
        set.add_sphere(set.add_body(d), {0, 0, 0}, r);
      }
  return set;
}

struct Outcome {
  unsigned long long hash;
  std::size_t contacts;
  double residual, kinetic_energy;
};

Outcome run(const BodySet& bed, SolverMethod method) {
  StepSettings s;
  s.step_size = 1e-3;
  s.collision.envelope = 0.002;
  s.solver.method = method;
  s.solver.max_iterations = 40;
  s.solver.tolerance = method == SolverMethod::Jacobi ? 0 : 1e-6;
  RigidBodySystem system(bed, s);
  for (int k = 0; k < 60; ++k) system.step();
  const StepStats& st = system.last_stats();
  return {static_cast<unsigned long long>(system.state_hash()), st.contacts, st.residual, st.kinetic_energy};
}

}  // namespace

constexpr char kUsage[] =
    "usage: state_hash [--repeats R]\n"
    "Is a build's step reproducible? The hash of every body's state after 60 steps (bench/state_hash.cpp).\n";

int main(int argc, char** argv) {
  trackcosim::bench::help_exits(argc, argv, kUsage);
  const int repeats = std::atoi(bench::flag(argc, argv, "--repeats", "2"));
#ifdef TRACKCOSIM_BENCH_ON_GPU
  const std::vector<int> thread_counts{0};
#else
  const std::vector<int> thread_counts{1, 2};
#endif
  const BodySet bed = falling_bed();
  bool same = true;
  for (const SolverMethod method : {SolverMethod::Jacobi, SolverMethod::Apgd}) {
    const char* name = method == SolverMethod::Jacobi ? "jacobi" : "apgd";
    unsigned long long first = 0;
    bool have_first = false;
    for (const int threads : thread_counts) {
      if (threads > 0) omp_set_num_threads(threads);
      for (int r = 0; r < repeats; ++r) {
        const Outcome o = run(bed, method);
        std::printf("%s threads=%d run=%d hash=%016llx contacts=%zu residual=%.9e kinetic_energy=%.9e\n", name, threads,
                    r + 1, o.hash, o.contacts, o.residual, o.kinetic_energy);
        std::fflush(stdout);
        if (have_first && o.hash != first) same = false;
        first = o.hash;
        have_first = true;
      }
    }
  }
  std::printf("state_hash reproducible=%s\n", same ? "yes" : "no");
  return same ? 0 : 1;
}
