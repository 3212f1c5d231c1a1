// bench/comm_costs: what one message and one reduction cost, the two constants of the scaling
// model's communication terms (bench/scaling_model.py). Run it under mpiexec; a slab's ranks talk
// to rank - 1 and rank + 1, so this does the same.
//
//   mpiexec -n N comm_costs [--repeats R] [--calls C]
//
// exchange: one comm::NeighbourExchange call (the terrain's halo and solver messages), each rank
//   sending B bytes to each neighbour and receiving B from each, for B from 8 B to 2 MiB;
// allreduce: one sum over all ranks of `count` doubles (the solver's residual and row count).
// Each figure is the best of R batches of C calls (seconds per call, the slowest rank's), so a
// batch that another process interrupted does not count. Prints one line per figure:
//   comm kind=exchange ranks=<n> neighbours=<k> bytes=<b> seconds=<t>
//   comm kind=allreduce ranks=<n> count=<c> seconds=<t>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <span>
#include <vector>

#include "bench/bench_args.h"
#include "bench/bench_mpi.h"
#include "comm/neighbour_exchange.h"
#include "comm/rank_group.h"

namespace {

using namespace trackcosim;
using Clock = std::chrono::steady_clock;

/// Seconds per call of `call`, best batch of `repeats`, slowest rank.
template <class F>
double best_per_call(const comm::RankGroup& group, long long repeats, long long calls, F call) {
  for (int k = 0; k < 5; ++k) call();  // connections and buffers set up before timing
  double best = 1e300;
  for (long long r = 0; r < repeats; ++r) {
    group.barrier();
    const Clock::time_point start = Clock::now();
    for (long long c = 0; c < calls; ++c) call();
    const double per_call = std::chrono::duration<double>(Clock::now() - start).count() / double(calls);
    best = std::min(best, group.max(per_call));
  }
  return best;
}

}  // namespace

constexpr char kUsage[] =
    "usage: mpiexec -n N comm_costs [--repeats R] [--calls C]\n"
    "What one neighbour message and one reduction cost (bench/comm_costs.cpp).\n";

int main(int argc, char** argv) {
  trackcosim::bench::help_exits(argc, argv, kUsage);
  const bench::MpiProgram mpi(argc, argv);
  const comm::RankGroup group = comm::RankGroup::world();
  const long long repeats = bench::flag(argc, argv, "--repeats", 7), calls = bench::flag(argc, argv, "--calls", 200);
  std::vector<int> neighbours;
  if (mpi.rank > 0) neighbours.push_back(mpi.rank - 1);
  if (mpi.rank + 1 < mpi.ranks) neighbours.push_back(mpi.rank + 1);
  comm::NeighbourExchange exchange(group, neighbours);
  // The slowest rank's neighbour count (the middle ranks of a line have two).
  const int most_neighbours = group.max(static_cast<int>(neighbours.size()));

  for (std::size_t bytes = 8; bytes <= (std::size_t(2) << 20); bytes *= 8) {
    std::vector<std::vector<std::byte>> out(neighbours.size(), std::vector<std::byte>(bytes)),
        in(neighbours.size(), std::vector<std::byte>(bytes));
    std::vector<std::span<const std::byte>> o(out.begin(), out.end());
    std::vector<std::span<std::byte>> i(in.begin(), in.end());
    // Large messages need fewer calls for the same confidence and would take long otherwise.
    const long long n = std::max<long long>(4, calls * 4096 / std::max<long long>(4096, static_cast<long long>(bytes)));
    const double t = best_per_call(group, repeats, n, [&] { exchange.exchange(o, i, comm::ExchangeTag::Slots); });
    if (mpi.rank == 0)
      std::printf("comm kind=exchange ranks=%d neighbours=%d bytes=%zu seconds=%.9f\n", mpi.ranks, most_neighbours,
                  bytes, t);
  }
  for (const std::size_t count : {std::size_t(1), std::size_t(2), std::size_t(8)}) {
    std::vector<double> values(count, 0.0);  // zeros: the sums stay finite call after call
    const double t = best_per_call(group, repeats, calls, [&] { group.sum_in_place(values); });
    if (mpi.rank == 0) std::printf("comm kind=allreduce ranks=%d count=%zu seconds=%.9f\n", mpi.ranks, count, t);
  }
  return 0;
}
