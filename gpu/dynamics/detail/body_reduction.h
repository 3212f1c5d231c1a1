#pragma once
// Summing the reduction slots per body without races (Tasora-Negrut sec. 4.1, fig. 8 and
// steps 8-9 of algorithm 1): instead of a segmented scan we keep, per body, the list of its
// slots in slot order (a stable sort of slot ids by body, once per step) and let one thread
// per body add its slots in that order. No atomics, and the same sum for any thread count.
// Only .cu files include this header.

#include <cstdint>

#include <thrust/device_vector.h>

#include "gpu/dynamics/detail/constraint_blocks.h"
#include "gpu/dynamics/detail/deterministic_sum.h"

namespace trackcosim::gpu::detail {

struct DeviceSlots {
  thrust::device_vector<SlotImpulse> slot;
  void resize(std::size_t n) { slot.resize(n); }
  SlotView view() { return {raw(slot)}; }
};

/// For body j, slots[start[j] .. start[j+1]) are its reduction slots in increasing order.
struct SlotLists {
  thrust::device_vector<std::uint32_t> slot_body;  ///< scratch: body of each slot, sorted
  thrust::device_vector<std::uint32_t> slots;
  thrust::device_vector<std::uint32_t> start;

  /// Contacts own slots [0, 2 nc), rows own [2 nc, 2 nc + 2 nr) (rolling rows add into their
  /// contact's slots).
  void build(const DeviceContactBlock& contacts, const DeviceRowBlock& rows, std::size_t bodies);
};

/// Velocities to measure the new ones against (APGD's line search); inactive by default.
struct VelocityReference {
  Vec3View v{}, w{};
  bool active = false;
};

/// v = v_free + m^-1 sum(P), w = w_free + I^-1 sum(L) for every dynamic body; the others keep
/// their velocity. With an active reference, s[0] = sum_j d_j . M_j d_j, d = (v, w) - reference.
ChunkSums gather_velocities(const BodyView& bodies, SlotView slots, const SlotLists& lists, std::size_t body_count,
                            thrust::device_vector<ChunkSums>& partials, VelocityReference reference = {});

}  // namespace trackcosim::gpu::detail
