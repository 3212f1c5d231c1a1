#pragma once
// Stages 1-6: put every sphere into the bins its box touches and keep the bins that hold two
// or more spheres. Only .cu files include this header.

#include <cstdint>

#include <thrust/device_vector.h>

#include "gpu/collision/detail/bin_grid.h"
#include "gpu/collision/detail/device_scene.h"
#include "gpu/collision/detail/stage_clock.h"

namespace trackcosim::gpu::detail {

using SphereIndex = std::uint32_t;

/// A sphere whose box touches more bins than this (about 40 per axis) is refused: bins that
/// small next to it would cost more than testing it against everything.
inline constexpr std::uint64_t kMaxBinsPerSphere = std::uint64_t{1} << 16;

/// The bin -> spheres map. Buffers are kept between passes to avoid reallocation.
struct BinnedSpheres {
  thrust::device_vector<std::uint64_t> sphere_entry_offset;  ///< stages 1-2, per sphere
  thrust::device_vector<BinKey> entry_bin;                  ///< stages 3-4, per (bin, sphere)
  thrust::device_vector<SphereIndex> entry_sphere;
  thrust::device_vector<BinKey> touched_bin;                ///< stage 5, per touched bin
  thrust::device_vector<std::uint32_t> touched_count;
  thrust::device_vector<std::uint64_t> touched_start;
  thrust::device_vector<BinKey> active_bin;                 ///< stage 6, bins with >= 2 spheres
  thrust::device_vector<std::uint32_t> active_count;
  thrust::device_vector<std::uint64_t> active_start;
};

void bin_spheres(const DeviceScene& scene, const BinGrid& grid, real half_envelope, BinnedSpheres& out,
                 StageClock& clock);

}  // namespace trackcosim::gpu::detail
