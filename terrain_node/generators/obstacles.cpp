#include "terrain_node/generators/obstacles.h"

#include "domain/decomposition.h"

#include <algorithm>
#include <cmath>

namespace trackcosim::terrain {
namespace {

/// A rotation by `angle` about +y (x towards -z for a positive angle).
Quat about_y(real angle) { return {std::cos(angle / 2), 0, std::sin(angle / 2), 0}; }

/// A box whose top face is the segment a-b of the x-z plane (a.x < b.x), reaching `depth` below
/// it, `width` across y around y.
OrientedBox slab_under(Vec3 a, Vec3 b, real depth, real width) {
  const real dx = b.x - a.x, dz = b.z - a.z, length = std::sqrt(dx * dx + dz * dz);
  // Outward normal of the face (pointing up): (-dz, dx) / length in x-z.
  const Vec3 normal{-dz / length, 0, dx / length};
  const Vec3 mid{(a.x + b.x) / 2, a.y, (a.z + b.z) / 2};
  // A positive slope dz/dx needs the box's +x axis tilted up: a rotation by -atan about +y.
  return {mid - normal * (depth / 2), {length / 2, width / 2, depth / 2}, about_y(-std::atan2(dz, dx))};
}

}  // namespace

Vec3 Obstacle::position() const { return kind == Kind::Ramp ? (min + max) * real(0.5) : center; }

const char* Obstacle::kind_name() const {
  constexpr const char* names[] = {"box", "ramp", "speed_bump"};
  return names[int(kind)];
}

std::vector<OrientedBox> Obstacle::boxes() const {
  if (kind == Kind::Box) return {{center, size * real(0.5), orientation}};
  if (kind == Kind::Ramp) {
    const real y = (min.y + max.y) / 2, w = max.y - min.y, run = max.x - min.x, rise = max.z - min.z;
    const Vec3 low{rises_along_x ? min.x : max.x, y, min.z}, high{rises_along_x ? max.x : min.x, y, max.z};
    // Deep enough to cover the whole wedge: the right-angle corner lies run * rise / slope below the slope.
    const real depth = run * rise / std::sqrt(run * run + rise * rise);
    return {rises_along_x ? slab_under(low, high, depth, w) : slab_under(high, low, depth, w)};
  }
  // Speed bump: a circular arc of chord `length` and height `height` over the base at center.z.
  const real radius = (length * length / 4 + height * height) / (2 * height);
  const real half_angle = std::asin(std::min<real>(1, length / (2 * radius)));
  const Vec3 arc_center{center.x, center.y, center.z + height - radius};
  std::vector<OrientedBox> out;
  for (int k = 0; k < segments; ++k) {
    const real t0 = -half_angle + 2 * half_angle * real(k) / real(segments);
    const real t1 = -half_angle + 2 * half_angle * real(k + 1) / real(segments);
    const Vec3 a{arc_center.x + radius * std::sin(t0), center.y, arc_center.z + radius * std::cos(t0)};
    const Vec3 b{arc_center.x + radius * std::sin(t1), center.y, arc_center.z + radius * std::cos(t1)};
    // Down to the base plane from both chord ends, measured along the face normal.
    const real c = std::cos((t0 + t1) / 2);
    const real depth = std::max(a.z - center.z, b.z - center.z) / c;
    out.push_back(slab_under(a, b, depth, width));
  }
  return out;
}

real distance_to_box(const OrientedBox& box, Vec3 p) {
  const Vec3 local = rotate_inverse(box.orientation, p - box.center);
  const real dx = std::max<real>(0, std::abs(local.x) - box.half_extents.x);
  const real dy = std::max<real>(0, std::abs(local.y) - box.half_extents.y);
  const real dz = std::max<real>(0, std::abs(local.z) - box.half_extents.z);
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

bool boxes_overlap(const domain::Aabb& a, const OrientedBox& b) {
  const Vec3 a_half = (a.hi - a.lo) * real(0.5);
  const Vec3 t = b.center - (a.lo + a.hi) * real(0.5);
  const Vec3 a_axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  const Vec3 b_axes[3] = {rotate(b.orientation, {1, 0, 0}), rotate(b.orientation, {0, 1, 0}),
                          rotate(b.orientation, {0, 0, 1})};
  const real a_e[3] = {a_half.x, a_half.y, a_half.z};
  const real b_e[3] = {b.half_extents.x, b.half_extents.y, b.half_extents.z};
  const real size = std::max({a_e[0], a_e[1], a_e[2], b_e[0], b_e[1], b_e[2]});
  const real touching = real(1e-9) * size;
  // Separated along the unit axis l when the centres' distance along it reaches the sum of the
  // two boxes' half widths along it (minus rounding: a touching pair counts as separated).
  auto separated = [&](Vec3 l) {
    real ra = 0, rb = 0;
    for (int k = 0; k < 3; ++k) {
      ra += a_e[k] * std::abs(dot(a_axes[k], l));
      rb += b_e[k] * std::abs(dot(b_axes[k], l));
    }
    return std::abs(dot(t, l)) >= ra + rb - touching;
  };
  for (const Vec3& l : a_axes)
    if (separated(l)) return false;
  for (const Vec3& l : b_axes)
    if (separated(l)) return false;
  // Parallel edges give no new direction (their cross product vanishes): the face normals cover them.
  for (const Vec3& u : a_axes)
    for (const Vec3& v : b_axes) {
      const Vec3 l = cross(u, v);
      const real n = length(l);
      if (n > real(1e-6) && separated(l * (1 / n))) return false;
    }
  return true;
}

ObstacleSet::ObstacleSet(const std::vector<Obstacle>& obstacles) {
  for (const Obstacle& o : obstacles)
    for (const OrientedBox& b : o.boxes()) {
      boxes_.push_back(b);
      // Bounds of the rotated box: the rotated half extents' absolute projections.
      Vec3 e{0, 0, 0};
      for (const Vec3 axis : {Vec3{b.half_extents.x, 0, 0}, Vec3{0, b.half_extents.y, 0}, Vec3{0, 0, b.half_extents.z}}) {
        const Vec3 r = rotate(b.orientation, axis);
        e = e + Vec3{std::abs(r.x), std::abs(r.y), std::abs(r.z)};
      }
      bounds_.push_back({b.center - e, b.center + e});
    }
}

bool ObstacleSet::overlaps(Vec3 center, real radius) const {
  for (std::size_t k = 0; k < boxes_.size(); ++k)
    if (domain::distance_to(bounds_[k], center) < radius && distance_to_box(boxes_[k], center) < radius) return true;
  return false;
}

bool ObstacleSet::overlaps(const domain::Aabb& box) const {
  for (std::size_t k = 0; k < boxes_.size(); ++k)
    if (box.overlaps(bounds_[k]) && boxes_overlap(box, boxes_[k])) return true;
  return false;
}

bool ObstacleSet::near(const domain::Aabb& box, real margin) const {
  const domain::Aabb grown = box.grown(margin);
  for (const domain::Aabb& b : bounds_)
    if (grown.overlaps(b)) return true;
  return false;
}

}  // namespace trackcosim::terrain
