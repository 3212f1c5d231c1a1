#pragma once
// The solver's side of a distributed solve (solver_exchange.h): the partition's lists on the
// device, packing of reduction slots and ghost velocities into messages, and the global sums.
// On a single rank `exchange` is null and every function here is the local operation alone.
// Only .cu files include this header.

#include <vector>

#include <thrust/device_vector.h>

#include "gpu/dynamics/detail/body_reduction.h"
#include "gpu/dynamics/solver_exchange.h"
#include "gpu/memory/staging_buffer.h"

namespace trackcosim::gpu::detail {

struct DistributedSolve {
  SolverExchange* exchange = nullptr;
  thrust::device_vector<std::uint32_t> slots_out, slots_in, velocities_out, velocities_in;
  thrust::device_vector<std::uint32_t> constraint_count;
  thrust::device_vector<real> packed;    ///< device staging of an outgoing message
  StagingBuffer<real> host_out, host_in;  ///< what the exchange sends and receives
  real rows_here = 0;                    ///< solver rows (3 per contact, 5 with rolling) solved here

  bool active() const { return exchange != nullptr; }
};

struct SolverWorkspace;

/// Uploads the partition's lists and builds from them, on the device, the contacts' and bodies'
/// masks and every body's contact count (the ghosts' come from their owners: exchange_counts);
/// counts the rows solved here. Call after the slot lists are built.
void begin_distributed_solve(const SolvePartition& partition, SolverExchange& exchange, DeviceBodies& bodies,
                             SolverWorkspace& ws);
/// Back to a single-rank solve.
void end_distributed_solve(DeviceBodies& bodies, SolverWorkspace& ws);

/// v(gamma) of every body from the reduction slots: the local per-body sums, with slots and
/// ghost velocities exchanged around them when distributed. With an active reference the
/// returned s[0] (APGD's curvature) is summed over all ranks. `also`, when given, is summed over
/// all ranks in the same allreduce (APGD's gradient-step sums): on several ranks every sync point
/// of an iteration costs a message's latency and the wait for the slower rank, and the values,
/// summed element by element, are the same bits as in an allreduce of their own.
ChunkSums reduce_velocities(DeviceBodies& bodies, SolverWorkspace& ws, VelocityReference reference = {},
                            ChunkSums* also = nullptr);

/// The residual's RMS over all ranks, sqrt(sum of squares / rows), from this rank's sum of
/// squares: one allreduce carries both the sum's bins and the row count, so a step needs no
/// reduction of its own for the rows (the same bits: the count is an integer).
real residual_rms(SolverWorkspace& ws, const ExactSum& local_sum_of_squares);
real global_min(SolverWorkspace& ws, real local);

}  // namespace trackcosim::gpu::detail
