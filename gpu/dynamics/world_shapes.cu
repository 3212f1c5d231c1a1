// Body-frame shapes to world-frame shapes, once per step before collision detection.

#include "gpu/dynamics/detail/world_shapes.h"

#include <thrust/binary_search.h>
#include <thrust/for_each.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/iterator/counting_iterator.h>

#include "gpu/dynamics/detail/index_ops.h"
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

/// Regroups one kind of shape: `body` (the old shapes' bodies) becomes the new bodies of the
/// shapes that stay, and the result their indices into (old ++ added) shapes, grouped by new
/// body in their old order (a stable sort).
thrust::device_vector<std::uint32_t> regrouped_order(thrust::device_vector<std::uint32_t>& body,
                                                     const thrust::device_vector<std::uint32_t>& added_body,
                                                     const thrust::device_vector<std::uint32_t>& new_body_of,
                                                     std::uint32_t old_bodies) {
  const std::size_t n_old = body.size(), n = n_old + added_body.size();
  thrust::device_vector<std::uint32_t> key(n), order(n);
  const std::uint32_t *old_of = raw(body), *added_of = raw(added_body), *new_of = raw(new_body_of);
  std::uint32_t* k_out = raw(key);
  thrust::for_each(par(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(n),
                   [=] TRACKCOSIM_HD(std::size_t k) {
                     k_out[k] = k < n_old ? new_of[old_of[k]] : new_of[old_bodies + added_of[k - n_old]];
                   });
  thrust::sequence(par(), order.begin(), order.end());
  thrust::stable_sort_by_key(par(), key.begin(), key.end(), order.begin());
  const auto stay = static_cast<std::size_t>(
      thrust::lower_bound(par(), key.begin(), key.end(), WorldShapes::kGone) - key.begin());
  key.resize(stay);
  order.resize(stay);
  body.swap(key);
  return order;
}

}  // namespace

void WorldShapes::regroup(const WorldShapes& added, const thrust::device_vector<std::uint32_t>& new_body_of,
                          std::uint32_t old_bodies) {
  const thrust::device_vector<std::uint32_t> spheres =
      regrouped_order(sphere_body_, added.sphere_body_, new_body_of, old_bodies);
  gather_concatenated(offset_.x, added.offset_.x, spheres);
  gather_concatenated(offset_.y, added.offset_.y, spheres);
  gather_concatenated(offset_.z, added.offset_.z, spheres);
  gather_concatenated(scene_.gid, added.scene_.gid, spheres);
  gather_concatenated(scene_.radius, added.scene_.radius, spheres);
  gather_concatenated(scene_.shape, added.scene_.shape, spheres);
  scene_.x.resize(spheres.size());
  scene_.y.resize(spheres.size());
  scene_.z.resize(spheres.size());
  const thrust::device_vector<std::uint32_t> planes =
      regrouped_order(plane_body_, added.plane_body_, new_body_of, old_bodies);
  gather_concatenated(local_planes_, added.local_planes_, planes);
  scene_.planes.resize(planes.size());
  const thrust::device_vector<std::uint32_t> boxes = regrouped_order(box_body_, added.box_body_, new_body_of, old_bodies);
  gather_concatenated(local_boxes_, added.local_boxes_, boxes);
  scene_.boxes.resize(boxes.size());
}

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
