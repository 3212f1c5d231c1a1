// Messages of a distributed CCP solve (see solver_exchange.h for the iteration they make
// identical to a single rank's). Slots and velocities are packed on the device in message
// order, copied to the host for the exchange, and unpacked in the same order: with Thrust's
// OpenMP backend the copies are memcpy's, on CUDA they are the only device<->host traffic.

#include <cmath>

#include "gpu/dynamics/detail/ccp_solver.h"
#include "gpu/memory/execution.h"
#include "gpu/memory/host_copy.h"

#include <thrust/copy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

namespace trackcosim::gpu::detail {
namespace {

/// Six reals per item: item k of `index` goes to packed[6k .. 6k+6).
template <class Read>
void pack(const thrust::device_vector<std::uint32_t>& index, thrust::device_vector<real>& packed,
          std::vector<real>& host, Read read) {
  const std::size_t n = index.size();
  packed.resize(6 * n);
  const std::uint32_t* idx = raw(index);
  real* out = raw(packed);
  thrust::for_each(par(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(n),
                   [=] TRACKCOSIM_HD(std::size_t k) { read(idx[k], out + 6 * k); });
  download(packed, host);  // the message to a neighbour rank: it must leave the device
}

template <class Write>
void unpack(const thrust::device_vector<std::uint32_t>& index, thrust::device_vector<real>& packed,
            const std::vector<real>& host, Write write) {
  const std::size_t n = index.size();
  upload(packed, host);
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
  d.exchange->exchange_slots(d.host_out, d.host_in);
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
  d.exchange->exchange_velocities(d.host_out, d.host_in);
  unpack(d.velocities_in, d.packed, d.host_in, [=] TRACKCOSIM_HD(std::uint32_t j, const real* i) {
    b.velocity.set(j, {i[0], i[1], i[2]});
    b.angular_velocity.set(j, {i[3], i[4], i[5]});
  });
}

}  // namespace

void begin_distributed_solve(const SolvePartition& p, SolverExchange& exchange, DeviceBodies& bodies,
                             SolverWorkspace& ws) {
  DistributedSolve& d = ws.distributed;
  d.exchange = &exchange;
  upload(ws.contacts.solve_here, p.solve_here);
  upload(bodies.ghost, p.ghost);
  upload(d.constraint_count, p.constraint_count);
  upload(d.slots_out, p.slots_out);
  upload(d.slots_in, p.slots_in);
  const bool rolling = ws.rolling.size() > 0;  // two more rows per contact (in its slots)
  upload(d.velocities_out, p.velocities_out);
  upload(d.velocities_in, p.velocities_in);
  real solved = 0;
  for (std::uint8_t s : p.solve_here) solved += s != 0 ? (rolling ? 5 : 3) : 0;
  d.rows_here = solved;
}

void end_distributed_solve(DeviceBodies& bodies, SolverWorkspace& ws) {
  ws.distributed.exchange = nullptr;
  ws.contacts.solve_here.clear();
  bodies.ghost.clear();
}

ChunkSums reduce_velocities(DeviceBodies& bodies, SolverWorkspace& ws, VelocityReference reference) {
  if (ws.distributed.active()) exchange_slots(ws);
  ChunkSums sums = gather_velocities(bodies.view(), ws.slots.view(), ws.slot_lists, bodies.size(), ws.partials, reference);
  if (!ws.distributed.active()) return sums;
  if (reference.active) ws.distributed.exchange->sum(sums.s, 1);
  exchange_velocities(bodies, ws);
  return sums;
}

ChunkSums global_sums(SolverWorkspace& ws, ChunkSums local) {
  if (ws.distributed.active()) ws.distributed.exchange->sum(local.s, kSumSlots);
  return local;
}

real residual_rms(SolverWorkspace& ws, real local_sum_of_squares) {
  real sums[2] = {local_sum_of_squares, ws.rows_here()};
  if (ws.distributed.active()) ws.distributed.exchange->sum(sums, 2);
  return sums[1] == 0 ? real(0) : std::sqrt(sums[0] / sums[1]);
}

real global_min(SolverWorkspace& ws, real local) {
  return ws.distributed.active() ? ws.distributed.exchange->min(local) : local;
}

}  // namespace trackcosim::gpu::detail
