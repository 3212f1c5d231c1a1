#pragma once
// The last two stages: put contacts in canonical key order and cap each body pair at K
// contacts, then gather the kept ones in order; the list stays on the device. Only .cu files include this header.

#include <cstdint>

#include <thrust/device_vector.h>

#include "gpu/collision/contact_list.h"
#include "gpu/collision/detail/device_contacts.h"
#include "gpu/collision/detail/stage_clock.h"

namespace trackcosim::gpu::detail {

struct ContactKey {
  GlobalId gid_a, gid_b;
  ShapeIndex shape_a, shape_b;
};
static_assert(sizeof(ContactKey) == 24);

TRACKCOSIM_HD inline bool operator<(const ContactKey& l, const ContactKey& r) {
  if (l.gid_a != r.gid_a) return l.gid_a < r.gid_a;
  if (l.gid_b != r.gid_b) return l.gid_b < r.gid_b;
  if (l.shape_a != r.shape_a) return l.shape_a < r.shape_a;
  return l.shape_b < r.shape_b;
}
TRACKCOSIM_HD inline bool operator==(const ContactKey& l, const ContactKey& r) {
  return l.gid_a == r.gid_a && l.gid_b == r.gid_b && l.shape_a == r.shape_a && l.shape_b == r.shape_b;
}

using ContactIndex = std::uint32_t;

struct OrderingBuffers {
  thrust::device_vector<GlobalId> body_key;      ///< gid_a, the first-level sort key
  thrust::device_vector<ContactKey> key;         ///< keys in sorted order
  thrust::device_vector<ContactIndex> order;     ///< sorted position -> raw contact
  thrust::device_vector<std::uint8_t> keep;
  thrust::device_vector<ContactIndex> segment_start, segment_size;
  thrust::device_vector<real> spread;            ///< scratch for the farthest-point choice
  thrust::device_vector<ContactIndex> kept;      ///< final position -> raw contact
};

/// Fills `out` (device memory) with the canonical, reduced list and returns the count before
/// reduction. max_per_pair == 0 keeps every contact.
std::uint64_t order_and_reduce(DeviceContacts& raw, std::uint32_t max_per_pair, OrderingBuffers& buffers,
                               DeviceContacts& out, StageClock& clock);

}  // namespace trackcosim::gpu::detail
