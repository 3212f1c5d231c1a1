#pragma once
// Stages 7-9: all-pairs narrow phase inside each active bin, counted, scanned, then written.
// Only .cu files include this header.

#include "gpu/collision/detail/device_contacts.h"
#include "gpu/collision/detail/sphere_binning.h"

namespace trackcosim::gpu::detail {

/// Appends the sphere-sphere contacts to `out` (which may already hold entries).
void find_bin_contacts(const DeviceScene& scene, const BinGrid& grid, const BinnedSpheres& bins, real envelope,
                       thrust::device_vector<std::uint64_t>& scratch_offsets, DeviceContacts& out,
                       StageClock& clock);

}  // namespace trackcosim::gpu::detail
