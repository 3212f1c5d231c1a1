// bench/terrain_scaling: one point of a strong- or weak-scaling study of the distributed terrain
// (run it under mpiexec; bench/run_scaling.sh drives the series and prints the tables).
//
//   mpiexec -n N terrain_scaling [--particles P | --particles-per-rank P] [--steps S]
//                                [--warmup-steps K] [--iterations I]
//
// The scene is the reference's settling test (Negrut et al. 2018, sec. 4.1) scaled to this
// machine: identical spheres (r = 5 mm) initialised in 8 layers on a grid, in a bed 0.22 m wide
// whose length follows the particle count (so weak scaling grows the bed along x, the split
// axis), Jacobi with a fixed iteration count, h = 1e-3 s. Each rank times K warm-up steps, then
// S steps (the warm-up lets the layers fall onto each other, so the timed steps
// solve a packed bed); the slowest rank's time counts. Prints one parseable line:
//   scaling ranks=<n> particles=<p> steps=<s> seconds_per_step=<t> seconds_per_simulated_second=<t/h>
//           exchange_ms_per_step=<e> solver_exchange_ms_per_step=<x> ghosts_per_rank=<g> contacts=<c>
// (exchange: ghost refresh, counts and warm-start messages; solver exchange: the per-iteration
// slot and velocity messages and the solver's reductions, waiting included).

#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "bench/bench_mpi.h"
#include "terrain_node/config/terrain_config.h"
#include "terrain_node/distributed/distributed_terrain.h"

namespace {

using namespace trackcosim;
using bench::flag;
using bench::max_over_ranks;

constexpr double kRadius = 0.005, kGap = 0.1, kWidth = 0.22;
constexpr int kLayers = 8;

terrain::TerrainConfig bed(long long particles, int iterations) {
  const double pitch = 2 * kRadius * (1 + kGap);
  const long long across = static_cast<long long>(kWidth / pitch);  // cells across the width
  const long long along = (particles + across * kLayers - 1) / (across * kLayers);
  const double length = double(along) * pitch;
  const std::string text = R"({
    "container": {"min": [0, 0, 0], "max": [)" + std::to_string(length) + ", " + std::to_string(kWidth) +
                           R"(, 0.5]},
    "particles": [{"kind": "layers", "min": [0, 0], "max": [)" + std::to_string(length) + ", " +
                           std::to_string(kWidth) + R"(], "bottom": 0.005, "layers": 8, "radius": 0.005, "seed": 1}],
    "step_size": 1e-3, "end_time": 1,
    "solver": {"method": "jacobi", "max_iterations": )" + std::to_string(iterations) + R"(, "max_recovery_speed": 0.5},
    "collision": {"envelope": 0.0005},
    "domain": {"layout": "slab:x"},
    "output": {"progress_interval": 0}
  })";
  return terrain::parse_terrain_config(text, "scaling bed");
}

}  // namespace

int main(int argc, char** argv) {
  const bench::MpiProgram mpi(argc, argv);
  const int rank = mpi.rank, ranks = mpi.ranks;
  const long long per_rank = flag(argc, argv, "--particles-per-rank", 0);
  const long long particles = per_rank > 0 ? per_rank * ranks : flag(argc, argv, "--particles", 20000);
  const long long steps = flag(argc, argv, "--steps", 10), warmup = flag(argc, argv, "--warmup-steps", 60);
  const int iterations = static_cast<int>(flag(argc, argv, "--iterations", 50));

  const terrain::TerrainConfig config = bed(particles, iterations);
  terrain::DistributedTerrain terrain(config, MPI_COMM_WORLD);
  for (long long k = 0; k < warmup; ++k) terrain.step();
  double exchange = 0, solver_exchange = 0;
  std::size_t ghosts = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const auto start = std::chrono::steady_clock::now();
  for (long long k = 0; k < steps; ++k) {
    terrain.step();
    exchange += terrain.exchange_stats().seconds;
    solver_exchange += terrain.exchange_stats().solver_seconds;
    ghosts = terrain.exchange_stats().ghosts;
  }
  const double seconds = max_over_ranks(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  exchange = max_over_ranks(exchange);
  solver_exchange = max_over_ranks(solver_exchange);
  const double per_step = seconds / double(steps);
  const unsigned long long contacts = terrain.global_stats().contacts;
  if (rank == 0)
    std::printf("scaling ranks=%d particles=%zu steps=%lld seconds_per_step=%.6f seconds_per_simulated_second=%.3f "
                "exchange_ms_per_step=%.3f solver_exchange_ms_per_step=%.3f ghosts_per_rank=%zu contacts=%llu\n",
                ranks, config.bodies.size() - config.bodies.planes.size(), steps, per_step,
                per_step / config.scene.step.step_size, 1e3 * exchange / double(steps),
                1e3 * solver_exchange / double(steps), ghosts,
                contacts);
  return 0;
}
