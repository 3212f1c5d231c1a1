#pragma once
// The result of collision detection, one entry per contact, as a structure of arrays.
//
// Conventions (DESIGN.md): body A has the smaller global id (gid_a < gid_b); the normal points
// from A to B; point_a lies on A's surface, point_b on B's; distance is the signed gap along the
// normal (negative = penetration), so point_b = point_a + distance * normal for sphere pairs.
// Entries are sorted by the contact key (gid_a, gid_b, shape_a, shape_b), which makes the list
// identical for any thread count.

#include <cstdint>
#include <vector>

#include "gpu/collision/shape_scene.h"

namespace trackcosim::gpu {

struct ContactList {
  std::vector<GlobalId> gid_a, gid_b;
  std::vector<ShapeIndex> shape_a, shape_b;
  std::vector<real> distance;
  std::vector<real> nx, ny, nz;
  std::vector<real> ax, ay, az;  ///< point on A
  std::vector<real> bx, by, bz;  ///< point on B

  std::size_t size() const { return distance.size(); }
  Vec3 normal(std::size_t i) const { return {nx[i], ny[i], nz[i]}; }
  Vec3 point_a(std::size_t i) const { return {ax[i], ay[i], az[i]}; }
  Vec3 point_b(std::size_t i) const { return {bx[i], by[i], bz[i]}; }
};

}  // namespace trackcosim::gpu
