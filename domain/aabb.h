#pragma once
// Axis-aligned boxes: subdomains, ghost regions and bounding boxes are all this type.

#include <algorithm>

#include "math/vec3.h"

namespace trackcosim::domain {

struct Aabb {
  Vec3 lo, hi;

  bool empty() const { return !(lo.x <= hi.x && lo.y <= hi.y && lo.z <= hi.z); }

  /// Half-open on the upper faces, so a point on a shared face belongs to exactly one of two
  /// adjacent subdomains.
  bool contains(Vec3 p) const {
    return lo.x <= p.x && p.x < hi.x && lo.y <= p.y && p.y < hi.y && lo.z <= p.z && p.z < hi.z;
  }

  Aabb grown(real margin) const {
    return {{lo.x - margin, lo.y - margin, lo.z - margin}, {hi.x + margin, hi.y + margin, hi.z + margin}};
  }

  bool overlaps(const Aabb& o) const {
    return lo.x < o.hi.x && o.lo.x < hi.x && lo.y < o.hi.y && o.lo.y < hi.y && lo.z < o.hi.z && o.lo.z < hi.z;
  }
};

inline Aabb intersection(const Aabb& a, const Aabb& b) {
  return {{std::max(a.lo.x, b.lo.x), std::max(a.lo.y, b.lo.y), std::max(a.lo.z, b.lo.z)},
          {std::min(a.hi.x, b.hi.x), std::min(a.hi.y, b.hi.y), std::min(a.hi.z, b.hi.z)}};
}

}  // namespace trackcosim::domain
