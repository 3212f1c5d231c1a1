#pragma once
// Rigid obstacles in a terrain (docs/terrain-config.md, `obstacles`): fixed bodies made of boxes,
// which the collision code meets as sphere-box contacts. A `box`; a `ramp`, a wedge whose slope
// rises along x; a `speed_bump`, a circular-segment hump across the x direction of travel. The
// thesis' second experiment (Heyn 2009, ch. 7) built its bump from extra spheres and gives no
// shape or size, so the rigid bump here is the common road form: a circular segment of given
// length, width and height, approximated by `segments` flat boxes whose top faces are the chords.
// The granular generators leave out every particle that would overlap an obstacle.

#include <string>
#include <vector>

#include "domain/aabb.h"
#include "math/vec3.h"

namespace trackcosim::terrain {

struct OrientedBox {
  Vec3 center{0, 0, 0};  ///< world frame
  Vec3 half_extents{0, 0, 0};
  Quat orientation{1, 0, 0, 0};
};

struct Obstacle {
  enum class Kind { Box, Ramp, SpeedBump };
  Kind kind = Kind::Box;
  // box: centre, full edge lengths, orientation
  Vec3 center{0, 0, 0};
  Vec3 size{0, 0, 0};
  Quat orientation{1, 0, 0, 0};
  // ramp: the wedge's bounds; the slope rises from (min.x, min.z) to (max.x, max.z), or from max.x
  // to min.x when `rises_along_x` is false
  Vec3 min{0, 0, 0}, max{0, 0, 0};
  bool rises_along_x = true;
  // speed bump: `center` is the middle of its base; length along x, width along y, height along z
  real length = 0, width = 0, height = 0;
  int segments = 8;
  real friction = 0.5;

  /// The boxes that make the obstacle, world frame.
  std::vector<OrientedBox> boxes() const;
  /// The reference point of its fixed body (box and bump: center; ramp: the middle of min and max).
  Vec3 position() const;
  const char* kind_name() const;
};

/// Distance from p to the box's surface, 0 inside.
real distance_to_box(const OrientedBox& box, Vec3 p);

/// Do the axis-aligned box and the oriented box share a volume? Boxes that only touch (along a
/// face, an edge or a corner, within a relative 1e-9 of their sizes) do not. The separating-axis
/// test over the 3 + 3 face normals and the 9 edge-pair directions.
bool boxes_overlap(const domain::Aabb& a, const OrientedBox& b);

/// The boxes of every obstacle, with their bounds, for the generators' overlap test.
class ObstacleSet {
 public:
  ObstacleSet() = default;
  explicit ObstacleSet(const std::vector<Obstacle>& obstacles);
  bool empty() const { return boxes_.empty(); }
  /// Would a sphere at `center` of `radius` overlap an obstacle? The true distance to each box,
  /// whatever its orientation: a sphere resting on a tilted face (distance = radius) does not.
  bool overlaps(Vec3 center, real radius) const;
  /// Does the box share a volume with one of the obstacles' boxes (their faces, not their
  /// axis-aligned bounds; touching is fine)?
  bool overlaps(const domain::Aabb& box) const;
  /// Does the box [lo, hi] come within `margin` of an obstacle's bounds? (A quick, conservative
  /// test: the bounds of a tilted box are larger than the box.)
  bool near(const domain::Aabb& box, real margin) const;

 private:
  std::vector<OrientedBox> boxes_;
  std::vector<domain::Aabb> bounds_;
};

}  // namespace trackcosim::terrain
