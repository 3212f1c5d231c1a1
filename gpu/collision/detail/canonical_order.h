#pragma once
// Canonical contact order: by (gid_a, gid_b, shape_a, shape_b). Only .cu files include this.

#include "gpu/collision/detail/contact_ordering.h"

namespace trackcosim::gpu::detail {

/// Fills buffers.order (sorted position -> raw contact) and buffers.key (keys in sorted order).
void sort_canonically(const DeviceContacts& raw, OrderingBuffers& buffers);

}  // namespace trackcosim::gpu::detail
