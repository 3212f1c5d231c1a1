#pragma once
// Spheres against the static planes and boxes, which are never binned (one wall can be larger
// than the whole grid). Only .cu files include this header.

#include <cstdint>

#include <thrust/device_vector.h>

#include "gpu/collision/detail/device_contacts.h"
#include "gpu/collision/detail/device_scene.h"
#include "gpu/collision/detail/stage_clock.h"

namespace trackcosim::gpu::detail {

/// Appends the contacts of every sphere with every plane and box to `out`.
void find_static_shape_contacts(const DeviceScene& scene, real envelope,
                                thrust::device_vector<std::uint64_t>& scratch_offsets, DeviceContacts& out,
                                StageClock& clock);

}  // namespace trackcosim::gpu::detail
