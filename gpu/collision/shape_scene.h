#pragma once
// What collision detection sees: world-space shapes, each tagged with the global id of the body
// it belongs to and its index within that body. A compound body (sphere set) is simply several
// spheres sharing one body gid; spheres of one body never collide with each other.
//
// Spheres go into the bin grid. Planes and boxes are static geometry (container walls,
// obstacles) of arbitrary size: they are never binned, each sphere is tested against each of
// them, which costs O(spheres x (planes + boxes)) and suits the tens of walls a scene has.

#include <cstdint>
#include <vector>

#include "math/real.h"
#include "math/vec3.h"

namespace trackcosim::gpu {

using GlobalId = std::uint64_t;
using ShapeIndex = std::uint32_t;

/// Spheres as a structure of arrays (one vector per field), the layout the kernels read.
struct SphereShapes {
  std::vector<real> x, y, z, radius;
  std::vector<GlobalId> body_gid;
  std::vector<ShapeIndex> shape_index;

  std::size_t size() const { return radius.size(); }
  void add(Vec3 center, real r, GlobalId gid, ShapeIndex shape) {
    x.push_back(center.x);
    y.push_back(center.y);
    z.push_back(center.z);
    radius.push_back(r);
    body_gid.push_back(gid);
    shape_index.push_back(shape);
  }
  void reserve(std::size_t n) {
    for (auto* v : {&x, &y, &z, &radius}) v->reserve(n);
    body_gid.reserve(n);
    shape_index.reserve(n);
  }
};

/// Infinite plane bounding a solid half-space: the solid lies on the side opposite to `normal`.
struct PlaneShape {
  GlobalId body_gid;
  ShapeIndex shape_index;
  Vec3 point;   ///< any point on the plane
  Vec3 normal;  ///< unit outward normal (points from the solid into the free space)
};

/// Solid oriented box.
struct BoxShape {
  GlobalId body_gid;
  ShapeIndex shape_index;
  Vec3 center;
  Vec3 half_extents;  ///< all > 0
  Quat orientation;   ///< box frame -> world frame, unit
};

struct ShapeScene {
  SphereShapes spheres;
  std::vector<PlaneShape> planes;
  std::vector<BoxShape> boxes;
};

}  // namespace trackcosim::gpu
