// Body-frame shapes to world-frame shapes, once per step before collision detection.

#include "gpu/dynamics/detail/world_shapes.h"

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

#include "gpu/memory/execution.h"
#include "gpu/memory/host_copy.h"

namespace trackcosim::gpu::detail {
namespace {

/// world[k] = place(local[k], position, orientation) with the pose of shape k's body.
template <class Shape, class Place>
void place_shapes(const BodyView& b, const thrust::device_vector<std::uint32_t>& body,
                  const thrust::device_vector<Shape>& local, thrust::device_vector<Shape>& world, Place place) {
  const std::uint32_t* owner = raw(body);
  const Shape* in = raw(local);
  Shape* out = raw(world);
  thrust::for_each(par(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(local.size()),
                   [=] TRACKCOSIM_HD(std::size_t k) {
                     const std::uint32_t j = owner[k];
                     out[k] = place(in[k], b.position.get(j), b.orientation.get(j));
                   });
}

}  // namespace

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
  place_shapes(b, plane_body_, local_planes_, scene_.planes, [] TRACKCOSIM_HD(PlaneShape w, Vec3 p, Quat q) {
    w.point = p + rotate(q, w.point);
    w.normal = rotate(q, w.normal);
    return w;
  });
  place_shapes(b, box_body_, local_boxes_, scene_.boxes, [] TRACKCOSIM_HD(BoxShape w, Vec3 p, Quat q) {
    w.center = p + rotate(q, w.center);
    w.orientation = multiply(q, w.orientation);
    return w;
  });
  return scene_;
}

}  // namespace trackcosim::gpu::detail
