// Body-frame shapes to world-frame shapes, once per step before collision detection.

#include "gpu/dynamics/detail/world_shapes.h"

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

#include "gpu/memory/execution.h"
#include "gpu/memory/host_copy.h"

namespace trackcosim::gpu::detail {

WorldShapes::WorldShapes(const BodySet& s) {
  upload(sphere_body_, s.sphere_body);
  upload(plane_body_, s.plane_body);
  upload(box_body_, s.box_body);
  upload(offset_.x, s.sphere_ox);
  upload(offset_.y, s.sphere_oy);
  upload(offset_.z, s.sphere_oz);
  upload(local_planes_, s.planes);
  upload(local_boxes_, s.boxes);
  std::vector<GlobalId> gid(s.sphere_body.size());
  for (std::size_t k = 0; k < s.sphere_body.size(); ++k) gid[k] = s.gid[s.sphere_body[k]];
  upload(scene_.gid, gid);
  upload(scene_.radius, s.sphere_radius);
  upload(scene_.shape, s.sphere_shape);
  scene_.x.resize(gid.size());
  scene_.y.resize(gid.size());
  scene_.z.resize(gid.size());
  scene_.planes.resize(s.planes.size());
  scene_.boxes.resize(s.boxes.size());
}

const DeviceScene& WorldShapes::update(DeviceBodies& bodies) {
  const BodyView b = bodies.view();
  const auto ids = thrust::counting_iterator<std::size_t>(0);
  {
    const std::uint32_t* body = raw(sphere_body_);
    const Vec3View offset = offset_.view();
    real *x = raw(scene_.x), *y = raw(scene_.y), *z = raw(scene_.z);
    thrust::for_each(par(), ids, ids + sphere_body_.size(), [=] TRACKCOSIM_HD(std::size_t k) {
      const std::uint32_t j = body[k];
      const Vec3 c = b.position.get(j) + rotate(b.orientation.get(j), offset.get(k));
      x[k] = c.x;
      y[k] = c.y;
      z[k] = c.z;
    });
  }
  {
    const std::uint32_t* body = raw(plane_body_);
    const PlaneShape* local = raw(local_planes_);
    PlaneShape* world = raw(scene_.planes);
    thrust::for_each(par(), ids, ids + local_planes_.size(), [=] TRACKCOSIM_HD(std::size_t k) {
      const std::uint32_t j = body[k];
      const Quat q = b.orientation.get(j);
      PlaneShape w = local[k];
      w.point = b.position.get(j) + rotate(q, w.point);
      w.normal = rotate(q, w.normal);
      world[k] = w;
    });
  }
  {
    const std::uint32_t* body = raw(box_body_);
    const BoxShape* local = raw(local_boxes_);
    BoxShape* world = raw(scene_.boxes);
    thrust::for_each(par(), ids, ids + local_boxes_.size(), [=] TRACKCOSIM_HD(std::size_t k) {
      const std::uint32_t j = body[k];
      const Quat q = b.orientation.get(j);
      BoxShape w = local[k];
      w.center = b.position.get(j) + rotate(q, w.center);
      w.orientation = multiply(q, w.orientation);
      world[k] = w;
    });
  }
  return scene_;
}

}  // namespace trackcosim::gpu::detail
