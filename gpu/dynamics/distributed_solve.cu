// Messages of a distributed CCP solve (see solver_exchange.h for the iteration they make
// identical to a single rank's). Slots and velocities are packed on the device in message
// order, copied to the host for the exchange through staging buffers (page-locked on CUDA), and
// unpacked in the same order: with Thrust's OpenMP backend the copies are memcpy's.

#include <cmath>

#include "gpu/dynamics/detail/ccp_solver.h"
#include "gpu/dynamics/detail/index_ops.h"
#include "gpu/memory/execution.h"
#include "gpu/memory/host_copy.h"
#include "gpu/memory/transfer_count.h"

#include <thrust/copy.h>
#include <thrust/gather.h>
#include <thrust/scatter.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

namespace trackcosim::gpu::detail {
namespace {

/// Six reals per item: item k of `index` goes to packed[6k .. 6k+6).
template <class Read>
void pack(const thrust::device_vector<std::uint32_t>& index, thrust::device_vector<real>& packed,
          StagingBuffer<real>& host, Read read) {
  const std::size_t n = index.size();
  packed.resize(6 * n);
  const std::uint32_t* idx = raw(index);
  real* out = raw(packed);
  thrust::for_each(par(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(n),
                   [=] TRACKCOSIM_HD(std::size_t k) { read(idx[k], out + 6 * k); });
  const MessageCopies message;
  download(packed, host);  // the message to a neighbour rank: it must leave the device
}

template <class Write>
void unpack(const thrust::device_vector<std::uint32_t>& index, thrust::device_vector<real>& packed,
            const StagingBuffer<real>& host, Write write) {
  const std::size_t n = index.size();
  {
    const MessageCopies message;
    upload(packed, host);
  }
  const std::uint32_t* idx = raw(index);
  const real* in = raw(packed);
  thrust::for_each(par(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(n),
                   [=] TRACKCOSIM_HD(std::size_t k) { write(idx[k], in + 6 * k); });
}

void exchange_slots(SolverWorkspace& ws) {
  DistributedSolve& d = ws.distributed;
  SlotImpulse* slot = raw(ws.slots.slot);
  pack(d.slots_out, d.packed, d.host_out, [=] TRACKCOSIM_HD(std::uint32_t s, real* o) {
    const SlotImpulse& v = slot[s];
    o[0] = v.linear.x, o[1] = v.linear.y, o[2] = v.linear.z;
    o[3] = v.angular.x, o[4] = v.angular.y, o[5] = v.angular.z;
  });
  d.host_in.resize(6 * d.slots_in.size());
  d.exchange->exchange_slots(d.host_out.data(), d.host_out.size(), d.host_in.data(), d.host_in.size());
  unpack(d.slots_in, d.packed, d.host_in, [=] TRACKCOSIM_HD(std::uint32_t s, const real* i) {
    slot[s] = SlotImpulse{{i[0], i[1], i[2]}, {i[3], i[4], i[5]}};
  });
}

void exchange_velocities(DeviceBodies& bodies, SolverWorkspace& ws) {
  DistributedSolve& d = ws.distributed;
  const BodyView b = bodies.view();
  pack(d.velocities_out, d.packed, d.host_out, [=] TRACKCOSIM_HD(std::uint32_t j, real* o) {
    const Vec3 v = b.velocity.get(j), w = b.angular_velocity.get(j);
    o[0] = v.x, o[1] = v.y, o[2] = v.z, o[3] = w.x, o[4] = w.y, o[5] = w.z;
  });
  d.host_in.resize(6 * d.velocities_in.size());
  d.exchange->exchange_velocities(d.host_out.data(), d.host_out.size(), d.host_in.data(), d.host_in.size());
  unpack(d.velocities_in, d.packed, d.host_in, [=] TRACKCOSIM_HD(std::uint32_t j, const real* i) {
    b.velocity.set(j, {i[0], i[1], i[2]});
    b.angular_velocity.set(j, {i[3], i[4], i[5]});
  });
}

/// Every body's contact count over all ranks: its own slot list's length (an owned body's list
/// holds every contact on it), the ghosts' from their owners (exchange_counts).
void count_constraints(const SlotLists& lists, std::size_t body_count, DistributedSolve& d) {
  d.constraint_count.resize(body_count);
  const std::uint32_t* start = raw(lists.start);
  std::uint32_t* count = raw(d.constraint_count);
  thrust::for_each(par(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(body_count),
                   [=] TRACKCOSIM_HD(std::size_t j) { count[j] = start[j + 1] - start[j]; });
  thrust::device_vector<std::uint32_t> owned(d.velocities_out.size());
  thrust::gather(par(), d.velocities_out.begin(), d.velocities_out.end(), d.constraint_count.begin(), owned.begin());
  std::vector<std::uint32_t> out, in(d.velocities_in.size());
  thrust::device_vector<std::uint32_t> received;
  {
    const MessageCopies message;
    download(owned, out);
    d.exchange->exchange_counts(out, in);
    upload(received, in);
  }
  thrust::scatter(par(), received.begin(), received.end(), d.velocities_in.begin(), d.constraint_count.begin());
}

}  // namespace

void begin_distributed_solve(const SolvePartition& p, SolverExchange& exchange, DeviceBodies& bodies,
                             SolverWorkspace& ws) {
  DistributedSolve& d = ws.distributed;
  d.exchange = &exchange;
  thrust::device_vector<std::uint32_t> elsewhere;
  upload(elsewhere, p.solved_elsewhere);
  ws.contacts.solve_here.assign(ws.contacts.size(), 1);
  mark(ws.contacts.solve_here, elsewhere, 0);
  upload(d.slots_out, p.slots_out);
  upload(d.slots_in, p.slots_in);
  upload(d.velocities_out, p.velocities_out);
  upload(d.velocities_in, p.velocities_in);
  bodies.ghost.assign(bodies.size(), 0);
  mark(bodies.ghost, d.velocities_in, 1);
  count_constraints(ws.slot_lists, bodies.size(), d);
  const bool rolling = ws.rolling.size() > 0;  // two more rows per contact (in its slots)
  d.rows_here = real((ws.contacts.size() - p.solved_elsewhere.size()) * (rolling ? 5 : 3));
}

void end_distributed_solve(DeviceBodies& bodies, SolverWorkspace& ws) {
  ws.distributed.exchange = nullptr;
  ws.contacts.solve_here.clear();
  bodies.ghost.clear();
}

namespace {

/// An exact sum travels as its bins: their element-wise sum over the ranks is exact too (each
/// bin holds whole quanta, math/exact_sum.h), so every rank reads the same bits as one rank.
/// (The bins are doubles: a float build's messages, math/real.h, round them, and its ranks agree
/// only to rounding.)
void pack(const ExactSum& sum, real*& out) {
  for (int k = 0; k < ExactSum::kBins; ++k) *out++ = static_cast<real>(sum.bin[k]);
}
void unpack(const real*& in, ExactSum& sum) {
  for (int k = 0; k < ExactSum::kBins; ++k) sum.bin[k] = *in++;
}

}  // namespace

ChunkSums reduce_velocities(DeviceBodies& bodies, SolverWorkspace& ws, VelocityReference reference, ChunkSums* also) {
  if (ws.distributed.active()) exchange_slots(ws);
  ChunkSums sums = gather_velocities(bodies.view(), ws.slots.view(), ws.slot_lists, bodies.size(), ws.partials, reference);
  if (!ws.distributed.active()) return sums;
  real values[(1 + kSumSlots) * ExactSum::kBins];
  real* out = values;
  if (reference.active) pack(sums.s[0], out);
  if (also != nullptr)
    for (int k = 0; k < kSumSlots; ++k) pack(also->s[k], out);
  if (out != values) ws.distributed.exchange->sum(values, static_cast<std::size_t>(out - values));
  const real* in = values;
  if (reference.active) unpack(in, sums.s[0]);
  if (also != nullptr)
    for (int k = 0; k < kSumSlots; ++k) unpack(in, also->s[k]);
  exchange_velocities(bodies, ws);
  return sums;
}

real residual_rms(SolverWorkspace& ws, const ExactSum& local_sum_of_squares) {
  ExactSum sum = local_sum_of_squares;
  real rows = ws.rows_here();
  if (ws.distributed.active()) {
    real values[ExactSum::kBins + 1];
    real* out = values;
    pack(sum, out);
    *out++ = rows;
    ws.distributed.exchange->sum(values, ExactSum::kBins + 1);
    const real* in = values;
    unpack(in, sum);
    rows = *in;
  }
  return rows == 0 ? real(0) : std::sqrt(sum.value() / rows);
}

real global_min(SolverWorkspace& ws, real local) {
  return ws.distributed.active() ? ws.distributed.exchange->min(local) : local;
}

}  // namespace trackcosim::gpu::detail
