// Body-frame shapes to world-frame shapes, once per step before collision detection.

#include "gpu/dynamics/detail/world_shapes.h"

#include <thrust/copy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

namespace trackcosim::gpu::detail {
WorldShapes::WorldShapes(const BodySet& s)
    : plane_body_(s.plane_body), box_body_(s.box_body), local_planes_(s.planes), local_boxes_(s.boxes) {
  sphere_body_.assign(s.sphere_body.begin(), s.sphere_body.end());
  offset_.assign(s.sphere_ox, s.sphere_oy, s.sphere_oz);
  world_.resize(s.sphere_radius.size());
  SphereShapes& out = scene_.spheres;
  out.x.resize(s.sphere_radius.size());
  out.y.resize(s.sphere_radius.size());
  out.z.resize(s.sphere_radius.size());
  out.radius = s.sphere_radius;
  out.shape_index = s.sphere_shape;
  out.body_gid.resize(s.sphere_radius.size());
  for (std::size_t k = 0; k < s.sphere_body.size(); ++k) out.body_gid[k] = s.gid[s.sphere_body[k]];
}

const ShapeScene& WorldShapes::update(DeviceBodies& bodies) {
  const BodyView b = bodies.view();
  const std::uint32_t* body = raw(sphere_body_);
  const Vec3View offset = offset_.view(), world = world_.view();
  thrust::for_each(thrust::counting_iterator<std::size_t>(0),
                   thrust::counting_iterator<std::size_t>(sphere_body_.size()), [=] TRACKCOSIM_HD(std::size_t k) {
                     const std::uint32_t j = body[k];
                     world.set(k, b.position.get(j) + rotate(b.orientation.get(j), offset.get(k)));
                   });
  thrust::copy(world_.x.begin(), world_.x.end(), scene_.spheres.x.begin());
  thrust::copy(world_.y.begin(), world_.y.end(), scene_.spheres.y.begin());
  thrust::copy(world_.z.begin(), world_.z.end(), scene_.spheres.z.begin());

  // Planes and boxes are few (walls, obstacles): placed on the host.
  scene_.planes.resize(local_planes_.size());
  for (std::size_t k = 0; k < local_planes_.size(); ++k) {
    const std::uint32_t j = plane_body_[k];
    const Vec3 p = bodies.position.at(j);
    const Quat q = bodies.orientation.at(j);
    PlaneShape w = local_planes_[k];
    w.point = p + rotate(q, w.point);
    w.normal = rotate(q, w.normal);
    scene_.planes[k] = w;
  }
  scene_.boxes.resize(local_boxes_.size());
  for (std::size_t k = 0; k < local_boxes_.size(); ++k) {
    const std::uint32_t j = box_body_[k];
    const Vec3 p = bodies.position.at(j);
    const Quat q = bodies.orientation.at(j);
    BoxShape w = local_boxes_[k];
    w.center = p + rotate(q, w.center);
    w.orientation = multiply(q, w.orientation);
    scene_.boxes[k] = w;
  }
  return scene_;
}

}  // namespace trackcosim::gpu::detail
