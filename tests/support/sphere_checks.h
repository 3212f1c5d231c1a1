#pragma once
// For generator tests: the spheres of a body set as a flat list, the closest approach of any two
// (all pairs found through a uniform grid, so 10^4 spheres take milliseconds), and the union of
// body sets built per region.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <vector>

#include "gpu/dynamics/body_set.h"

namespace trackcosim::test {

struct PlacedSphere {
  gpu::GlobalId gid;
  Vec3 center;
  real radius;
};

/// One entry per sphere of a dynamic body (offsets are zero for generated particles).
inline std::vector<PlacedSphere> dynamic_spheres(const gpu::BodySet& s) {
  std::vector<PlacedSphere> out;
  for (std::size_t k = 0; k < s.sphere_radius.size(); ++k) {
    const std::uint32_t b = s.sphere_body[k];
    if (s.motion[b] != gpu::Motion::Dynamic) continue;
    out.push_back({s.gid[b], {s.px[b] + s.sphere_ox[k], s.py[b] + s.sphere_oy[k], s.pz[b] + s.sphere_oz[k]},
                   s.sphere_radius[k]});
  }
  return out;
}

/// The least surface-to-surface distance |c_i - c_j| - r_i - r_j over all pairs closer than
/// `reach` centre to centre (+infinity when none is).
inline double smallest_gap(const std::vector<PlacedSphere>& spheres, double reach) {
  auto key = [&](Vec3 p, int dx, int dy, int dz) {
    const auto cell = [&](real v, int d) { return std::int64_t(std::floor(v / reach)) + d; };
    return (cell(p.x, dx) * 73856093) ^ (cell(p.y, dy) * 19349663) ^ (cell(p.z, dz) * 83492791);
  };
  std::unordered_multimap<std::int64_t, std::size_t> grid;
  for (std::size_t i = 0; i < spheres.size(); ++i) grid.emplace(key(spheres[i].center, 0, 0, 0), i);
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < spheres.size(); ++i)
    for (int dz = -1; dz <= 1; ++dz)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const auto [lo, hi] = grid.equal_range(key(spheres[i].center, dx, dy, dz));
          for (auto it = lo; it != hi; ++it) {
            const std::size_t j = it->second;
            if (j <= i) continue;
            const Vec3 d = spheres[i].center - spheres[j].center;
            const double dist = std::sqrt(double(dot(d, d)));
            if (dist < reach) best = std::min(best, dist - spheres[i].radius - spheres[j].radius);
          }
        }
  return best;
}

}  // namespace trackcosim::test
