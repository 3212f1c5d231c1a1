#pragma once
// Lookups in a short sorted list of global ids (fixed bodies, compliant bodies) from a kernel.
// Only .cu files include this header.

#include <cstddef>

#include "gpu/collision/shape_scene.h"
#include "math/host_device.h"

namespace trackcosim::gpu::detail {

/// Index of gid in the sorted list, or n.
TRACKCOSIM_HD inline std::size_t find_gid(const GlobalId* sorted, std::size_t n, GlobalId gid) {
  std::size_t lo = 0, hi = n;
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    if (sorted[mid] < gid) lo = mid + 1; else hi = mid;
  }
  return lo < n && sorted[lo] == gid ? lo : n;
}

TRACKCOSIM_HD inline bool holds_gid(const GlobalId* sorted, std::size_t n, GlobalId gid) {
  return find_gid(sorted, n, gid) != n;
}

}  // namespace trackcosim::gpu::detail
