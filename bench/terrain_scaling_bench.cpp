// bench/terrain_scaling: one point of a strong- or weak-scaling study of the distributed terrain
// (run it under mpiexec; bench/run_scaling.sh and bench/run_scaling_study.sh drive the series).
//
//   mpiexec -n N terrain_scaling [--particles P | --particles-per-rank P] [--steps S]
//                                [--warmup-steps K] [--iterations I] [--alone]
//
// The scene is the reference's settling test (Negrut et al. 2018, sec. 4.1) scaled to this
// machine: identical spheres (r = 5 mm) initialised in 8 layers on a grid, in a bed 0.22 m wide
// whose length follows the particle count (so weak scaling grows the bed along x, the split
// axis), Jacobi with a fixed iteration count, h = 1e-3 s. Each rank times K warm-up steps, then
// S steps (the warm-up lets the layers fall onto each other, so the timed steps
// solve a packed bed); the slowest rank's time counts.
//
// --alone: every rank steps a terrain of its own, on one rank, with the particles one rank of
// the distributed run holds (P / N, or P per rank). The ranks run at the same time on the same
// cores and memory as the distributed run does, but send nothing: its time against the same
// terrain stepped by one process alone is what sharing the node costs (memory bus, caches,
// cores), and the distributed run's time against it is what splitting costs (docs/scaling.md).
//
// Threads per rank as terrain_node chooses them (OMP_NUM_THREADS wins). Prints one line:
//   scaling mode=<distributed|alone> ranks=<n> threads=<t> particles=<p> particles_per_rank=<p/n>
//           steps=<s> iterations=<i> seconds_per_step=<t> seconds_per_simulated_second=<t/h>
//           exchange_ms_per_step=<e> solver_exchange_ms_per_step=<x>
//           compute_ms_max=<c> compute_ms_mean=<c> compute_ms_min=<c> mpi_ms_min=<m> mpi_ms_max=<m>
//           halo_ms_min=<e> solver_messages_ms_min=<x> reductions_ms_min=<r> reductions_ms_max=<r>
//           exchanges_per_step=<k> bytes_per_step=<b> reductions_per_step=<r> neighbours=<k>
//           ghosts_per_rank=<g> contacts=<c> cpu_ms_mean=<u> cpu_compute_ms_mean=<u> cpu_compute_ms_max=<u>
//           device_bytes_per_step=<d> device_message_bytes_per_step=<m>
//           stages_ms_mean=ghosts:<t>,proxies:<t>,...
// Times per step; max/mean/min over ranks. exchange: the ghost refresh (its own work included),
// counts and warm-start messages; solver exchange: the per-iteration slot and velocity messages
// and the solver's allreduces, waiting included (both as terrain_node's timing.csv has them).
// mpi: the time inside neighbour exchanges and allreduces alone, waiting included; of it halo:
// the ghost, count and warm-start messages, solver messages, reductions. compute = wall - mpi,
// this rank's. cpu: the process's CPU time, and of it compute: less the CPU time spent polling
// in the exchanges; unlike wall time it does not grow while another program holds the core,
// which makes it the steadier measure of work on a busy machine. Counts per step are the
// busiest rank's; stages: terrain_step_stages.h's, each rank's own clock (messages inside),
// mean over ranks. device bytes: what the busiest rank copied between host and device memory
// (gpu::transfer_bytes, counted in the CPU build too; docs/ccp.md, "On a GPU"), and of them
// the solver's messages staged through the host (what a CUDA-aware MPI would not copy).

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <numeric>
#include <string>
#include <vector>

#include "bench/bench_args.h"
#include "bench/bench_mpi.h"
#include "gpu/memory/transfer_count.h"
#include "terrain_node/config/terrain_config.h"
#include "terrain_node/distributed/distributed_terrain.h"
#include "terrain_node/distributed/rank_threads.h"

namespace {

using namespace trackcosim;
using bench::flag;
using bench::max_over_ranks;

constexpr double kRadius = 0.005, kGap = 0.1, kWidth = 0.22;
constexpr int kLayers = 8;

/// The bed of `rows` rows of cells along x, each row 20 cells across and 8 layers high.
terrain::TerrainConfig bed(long long rows, int iterations) {
  const double pitch = 2 * kRadius * (1 + kGap);
  const double length = double(rows) * pitch;
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

double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

/// This rank's sums over the timed steps.
struct RankTimes {
  double wall = 0, halo = 0, solver = 0, reductions = 0, messages = 0, cpu = 0, message_cpu = 0;
  double exchanges = 0, bytes = 0, reduction_count = 0, ghosts = 0, neighbours = 0, device_bytes = 0;
  double device_message_bytes = 0;
  terrain::StageSeconds stages{};  // summed over the timed steps
};
constexpr int kRankFields = sizeof(RankTimes) / sizeof(double);  // sent as doubles
static_assert(sizeof(RankTimes) == kRankFields * sizeof(double));

std::vector<RankTimes> gather_to_first(const RankTimes& mine, int rank, int ranks) {
  std::vector<RankTimes> all(rank == 0 ? ranks : 0);
  MPI_Gather(&mine, kRankFields, MPI_DOUBLE, all.data(), kRankFields, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return all;
}

template <class F>
double max_of(const std::vector<RankTimes>& all, F f) {
  double m = -1e300;
  for (const RankTimes& r : all) m = std::max(m, f(r));
  return m;
}
template <class F>
double min_of(const std::vector<RankTimes>& all, F f) {
  return -max_of(all, [&](const RankTimes& r) { return -f(r); });
}
template <class F>
double mean_of(const std::vector<RankTimes>& all, F f) {
  double s = 0;
  for (const RankTimes& r : all) s += f(r);
  return s / double(all.size());
}

/// "ghosts:1.234,proxies:0.000,...": each stage's ms per step, mean over ranks.
std::string stage_list(const std::vector<RankTimes>& all, double steps) {
  std::string out;
  for (std::size_t i = 0; i < terrain::kTerrainStageCount; ++i) {
    char item[64];
    std::snprintf(item, sizeof item, "%s%s:%.3f", i == 0 ? "" : ",", std::string(terrain::kTerrainStageNames[i]).c_str(),
                  1e3 * mean_of(all, [&](const RankTimes& r) { return r.stages[i]; }) / steps);
    out += item;
  }
  return out;
}

}  // namespace

constexpr char kUsage[] =
    "usage: mpiexec -n N terrain_scaling [--particles P | --particles-per-rank P] [--steps S]\n"
    "                             [--warmup-steps K] [--iterations I] [--alone]\n"
    "One point of a strong- or weak-scaling study of the distributed terrain (bench/terrain_scaling_bench.cpp).\n";

int main(int argc, char** argv) {
  trackcosim::bench::help_exits(argc, argv, kUsage);
  const bench::MpiProgram mpi(argc, argv);
  const int rank = mpi.rank, ranks = mpi.ranks;
  const bool alone = std::any_of(argv + 1, argv + argc, [](const char* a) { return std::strcmp(a, "--alone") == 0; });
  const long long per_rank = flag(argc, argv, "--particles-per-rank", 0LL);
  const long long particles = per_rank > 0 ? per_rank * ranks : flag(argc, argv, "--particles", 20000);
  // The bed in whole rows of cells. Per rank: whole rows per rank, so that each rank of a split
  // bed holds what one rank alone holds. A total: the same bed on any rank count (strong
  // scaling), and alone a rank's share of it.
  const long long row = static_cast<long long>(kWidth / (2 * kRadius * (1 + kGap)) + 1e-9) * kLayers;
  const long long rows = per_rank > 0 ? ranks * std::max(1LL, (per_rank + row - 1) / row)
                                      : std::max(1LL, (particles + row - 1) / row);
  const long long rows_alone = std::max(1LL, (rows + ranks / 2) / ranks);
  const long long steps = flag(argc, argv, "--steps", 10), warmup = flag(argc, argv, "--warmup-steps", 60);
  const int iterations = static_cast<int>(flag(argc, argv, "--iterations", 50));
  const int threads = terrain::set_rank_threads(0, comm::RankGroup::world()).threads;

  // Alone, each rank is a terrain of one rank with one rank's share of the particles.
  MPI_Comm terrain_comm = MPI_COMM_WORLD;
  if (alone) MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &terrain_comm);
  const terrain::TerrainConfig config = bed(alone ? rows_alone : rows, iterations);
  const long long built = static_cast<long long>(config.bodies.size() - config.bodies.planes.size());
  const long long total = alone ? built * ranks : built;
  {
    terrain::DistributedTerrain terrain(config, terrain_comm);
    for (long long k = 0; k < warmup; ++k) terrain.step();
    RankTimes mine;
    MPI_Barrier(MPI_COMM_WORLD);
    const double cpu_start = process_cpu_seconds();
    const auto start = std::chrono::steady_clock::now();
    const gpu::TransferBytes device_start = gpu::transfer_bytes();
    for (long long k = 0; k < steps; ++k) {
      terrain.step();
      const terrain::ExchangeStats& x = terrain.exchange_stats();
      mine.halo += x.seconds;
      mine.solver += x.solver_seconds;
      mine.reductions += x.reduction_seconds;
      mine.messages += x.message_seconds;
      mine.message_cpu += x.message_cpu_seconds;
      mine.exchanges += double(x.exchanges);
      mine.bytes += double(x.bytes);
      mine.reduction_count += double(x.reductions);
      mine.ghosts = double(x.ghosts);
      for (std::size_t i = 0; i < terrain::kTerrainStageCount; ++i) mine.stages[i] += terrain.stage_seconds()[i];
    }
    mine.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const gpu::TransferBytes copied = gpu::transfer_bytes() - device_start;
    mine.device_bytes = double(copied.total());
    mine.device_message_bytes = double(copied.messages);
    mine.cpu = process_cpu_seconds() - cpu_start;
    mine.neighbours = double(terrain.decomposition().neighbours(terrain.rank(), terrain.ghost_width()).size());
    const double seconds = max_over_ranks(mine.wall);
    const std::vector<RankTimes> all = gather_to_first(mine, rank, ranks);
    unsigned long long contacts = terrain.global_stats().contacts;  // alone: each terrain's, added up
    if (alone) MPI_Allreduce(MPI_IN_PLACE, &contacts, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
      const double n = double(steps), ms = 1e3 / n;
      auto mpi_of = [](const RankTimes& r) { return r.messages + r.reductions; };
      auto halo_messages_of = [](const RankTimes& r) { return r.messages - (r.solver - r.reductions); };
      auto compute_of = [&](const RankTimes& r) { return r.wall - mpi_of(r); };
      auto cpu_compute_of = [](const RankTimes& r) { return r.cpu - r.message_cpu; };
      const double per_step = seconds / n;
      std::printf(
          "scaling mode=%s ranks=%d threads=%d particles=%lld particles_per_rank=%lld steps=%lld iterations=%d "
          "seconds_per_step=%.6f seconds_per_simulated_second=%.3f exchange_ms_per_step=%.3f "
          "solver_exchange_ms_per_step=%.3f compute_ms_max=%.3f compute_ms_mean=%.3f compute_ms_min=%.3f "
          "mpi_ms_min=%.3f mpi_ms_max=%.3f halo_ms_min=%.3f solver_messages_ms_min=%.3f reductions_ms_min=%.4f "
          "reductions_ms_max=%.4f exchanges_per_step=%.1f bytes_per_step=%.0f reductions_per_step=%.1f "
          "neighbours=%.0f ghosts_per_rank=%.0f contacts=%llu cpu_ms_mean=%.3f cpu_compute_ms_mean=%.3f "
          "cpu_compute_ms_max=%.3f device_bytes_per_step=%.0f device_message_bytes_per_step=%.0f stages_ms_mean=%s\n",
          alone ? "alone" : "distributed", ranks, threads, total, total / ranks, steps, iterations, per_step,
          per_step / config.scene.step.step_size, ms * max_of(all, [](const RankTimes& r) { return r.halo; }),
          ms * max_of(all, [](const RankTimes& r) { return r.solver; }), ms * max_of(all, compute_of),
          ms * mean_of(all, compute_of), ms * min_of(all, compute_of), ms * min_of(all, mpi_of),
          ms * max_of(all, mpi_of), ms * min_of(all, halo_messages_of),
          ms * min_of(all, [](const RankTimes& r) { return r.solver - r.reductions; }),
          ms * min_of(all, [](const RankTimes& r) { return r.reductions; }),
          ms * max_of(all, [](const RankTimes& r) { return r.reductions; }),
          max_of(all, [](const RankTimes& r) { return r.exchanges; }) / n,
          max_of(all, [](const RankTimes& r) { return r.bytes; }) / n,
          max_of(all, [](const RankTimes& r) { return r.reduction_count; }) / n,
          max_of(all, [](const RankTimes& r) { return r.neighbours; }),
          max_of(all, [](const RankTimes& r) { return r.ghosts; }), contacts,
          ms * mean_of(all, [](const RankTimes& r) { return r.cpu; }), ms * mean_of(all, cpu_compute_of),
          ms * max_of(all, cpu_compute_of), max_of(all, [](const RankTimes& r) { return r.device_bytes; }) / n,
          max_of(all, [](const RankTimes& r) { return r.device_message_bytes; }) / n, stage_list(all, n).c_str());
    }
  }
  if (alone) MPI_Comm_free(&terrain_comm);
  return 0;
}
