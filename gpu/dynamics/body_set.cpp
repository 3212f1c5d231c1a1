// Host-side construction of a BodySet. Validation of values happens when a RigidBodySystem is
// built from it (system_validation.cpp), so that one place names every bad field.

#include "gpu/dynamics/body_set.h"

#include <stdexcept>
#include <string>

namespace trackcosim::gpu {

std::uint32_t BodySet::add_body(const BodyDesc& b) {
  if (!gid.empty() && b.gid <= gid.back())
    throw std::invalid_argument("body gid " + std::to_string(b.gid) + " must be larger than the previous gid " +
                                std::to_string(gid.back()) + " (bodies are listed in increasing gid order)");
  gid.push_back(b.gid);
  px.push_back(b.position.x);
  py.push_back(b.position.y);
  pz.push_back(b.position.z);
  qw.push_back(b.orientation.w);
  qx.push_back(b.orientation.x);
  qy.push_back(b.orientation.y);
  qz.push_back(b.orientation.z);
  vx.push_back(b.velocity.x);
  vy.push_back(b.velocity.y);
  vz.push_back(b.velocity.z);
  wx.push_back(b.angular_velocity.x);
  wy.push_back(b.angular_velocity.y);
  wz.push_back(b.angular_velocity.z);
  mass.push_back(b.mass);
  ix.push_back(b.inertia.x);
  iy.push_back(b.inertia.y);
  iz.push_back(b.inertia.z);
  motion.push_back(b.motion);
  friction.push_back(b.friction);
  fx.push_back(b.applied_force.x);
  fy.push_back(b.applied_force.y);
  fz.push_back(b.applied_force.z);
  tx.push_back(b.applied_torque.x);
  ty.push_back(b.applied_torque.y);
  tz.push_back(b.applied_torque.z);
  shape_count_.push_back(0);
  return static_cast<std::uint32_t>(gid.size() - 1);
}

ShapeIndex BodySet::next_shape_index(std::uint32_t body) {
  if (body >= gid.size())
    throw std::invalid_argument("shape added to body index " + std::to_string(body) + ", but only " +
                                std::to_string(gid.size()) + " bodies exist");
  return shape_count_[body]++;
}

void BodySet::add_sphere(std::uint32_t body, Vec3 offset, real radius) {
  const ShapeIndex shape = next_shape_index(body);
  sphere_body.push_back(body);
  sphere_ox.push_back(offset.x);
  sphere_oy.push_back(offset.y);
  sphere_oz.push_back(offset.z);
  sphere_radius.push_back(radius);
  sphere_shape.push_back(shape);
}

void BodySet::add_plane(std::uint32_t body, Vec3 point, Vec3 normal) {
  const ShapeIndex shape = next_shape_index(body);
  plane_body.push_back(body);
  planes.push_back(PlaneShape{gid[body], shape, point, normal});
}

void BodySet::add_box(std::uint32_t body, Vec3 center, Vec3 half_extents, Quat orientation) {
  const ShapeIndex shape = next_shape_index(body);
  box_body.push_back(body);
  boxes.push_back(BoxShape{gid[body], shape, center, half_extents, orientation});
}

BodyState BodySet::state(std::size_t i) const {
  return {gid[i], {px[i], py[i], pz[i]}, {qw[i], qx[i], qy[i], qz[i]}, {vx[i], vy[i], vz[i]}, {wx[i], wy[i], wz[i]}};
}

}  // namespace trackcosim::gpu
