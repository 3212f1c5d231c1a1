#pragma once
// The uniform bin grid of the broad phase and the sphere bounding boxes that are put into it.
//
// Bins are addressed by 64-bit keys that pack (ix, iy, iz) in 21 bits each, so a grid may hold
// up to 2^63 bins: far more than 32-bit ids allow, and no array is ever sized by the bin count
// (only touched bins exist, after the sort). An axis that would need more than 2^21 bins gets
// wider bins instead.

#include <cmath>
#include <cstdint>
#include <limits>

#include "math/host_device.h"
#include "math/vec3.h"

namespace trackcosim::gpu::detail {

using BinKey = std::uint64_t;
inline constexpr int kBinKeyBitsPerAxis = 21;
inline constexpr std::uint64_t kMaxBinsPerAxis = std::uint64_t{1} << kBinKeyBitsPerAxis;

struct BinRange {
  std::uint64_t lo[3], hi[3];  ///< inclusive bin coordinates per axis
};

struct BinGrid {
  real origin[3];
  real inv_bin_size[3];
  std::uint64_t bins[3];

  /// Monotone in x, so a point inside an interval lands in a bin inside the interval's range.
  TRACKCOSIM_HD std::uint64_t axis_bin(real x, int axis) const {
    const real t = std::floor((x - origin[axis]) * inv_bin_size[axis]);
    if (!(t > 0)) return 0;  // also catches NaN
    const real last = static_cast<real>(bins[axis] - 1);
    return t >= last ? bins[axis] - 1 : static_cast<std::uint64_t>(t);
  }

  TRACKCOSIM_HD static BinKey key(std::uint64_t ix, std::uint64_t iy, std::uint64_t iz) {
    return ix | (iy << kBinKeyBitsPerAxis) | (iz << (2 * kBinKeyBitsPerAxis));
  }

  TRACKCOSIM_HD static std::uint64_t key_axis(BinKey k, int axis) {
    return (k >> (axis * kBinKeyBitsPerAxis)) & (kMaxBinsPerAxis - 1);
  }
};

/// Half-size of a sphere's binned box: radius + half the envelope (so two spheres closer than
/// the envelope share a bin) + a few ulps of the coordinates (so spheres that touch exactly are
/// never separated by rounding of c +- r).
TRACKCOSIM_HD inline real bin_half_size(Vec3 c, real radius, real half_envelope) {
  const real scale = std::fabs(c.x) + std::fabs(c.y) + std::fabs(c.z) + radius + half_envelope;
  return radius + half_envelope + real(16) * scale * std::numeric_limits<real>::epsilon();
}

TRACKCOSIM_HD inline BinRange sphere_bin_range(const BinGrid& grid, Vec3 c, real half) {
  BinRange r;
  const real cc[3] = {c.x, c.y, c.z};
  for (int a = 0; a < 3; ++a) {
    r.lo[a] = grid.axis_bin(cc[a] - half, a);
    r.hi[a] = grid.axis_bin(cc[a] + half, a);
  }
  return r;
}

TRACKCOSIM_HD inline std::uint64_t bin_count(const BinRange& r) {
  return (r.hi[0] - r.lo[0] + 1) * (r.hi[1] - r.lo[1] + 1) * (r.hi[2] - r.lo[2] + 1);
}

}  // namespace trackcosim::gpu::detail
