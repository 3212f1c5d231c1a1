#pragma once
// Device-resident copies of the shape scene and raw-pointer views of them for the functors.
// Only .cu files include this header (it pulls in Thrust).

#include <thrust/device_vector.h>

#include "gpu/collision/shape_scene.h"
#include "math/host_device.h"
#include "gpu/memory/host_copy.h"

namespace trackcosim::gpu::detail {

/// What a kernel needs to read sphere i, with no container in sight.
struct SphereView {
  const real *x, *y, *z, *radius;
  const GlobalId* gid;
  const ShapeIndex* shape;

  TRACKCOSIM_HD Vec3 center(std::size_t i) const { return {x[i], y[i], z[i]}; }
};

/// Orders two shapes as the contact convention wants: the smaller (gid, shape) is A.
TRACKCOSIM_HD inline bool precedes(GlobalId gid_a, ShapeIndex shape_a, GlobalId gid_b, ShapeIndex shape_b) {
  return gid_a < gid_b || (gid_a == gid_b && shape_a < shape_b);
}

struct DeviceScene {
  thrust::device_vector<real> x, y, z, radius;
  thrust::device_vector<GlobalId> gid;
  thrust::device_vector<ShapeIndex> shape;
  thrust::device_vector<PlaneShape> planes;
  thrust::device_vector<BoxShape> boxes;

  std::size_t sphere_count() const { return radius.size(); }

  void upload(const ShapeScene& scene) {
    const SphereShapes& s = scene.spheres;
    detail::upload(x, s.x);
    detail::upload(y, s.y);
    detail::upload(z, s.z);
    detail::upload(radius, s.radius);
    detail::upload(gid, s.body_gid);
    detail::upload(shape, s.shape_index);
    detail::upload(planes, scene.planes);
    detail::upload(boxes, scene.boxes);
  }

  /// A host copy, for the message about a bad shape (never on the normal path).
  ShapeScene download() const {
    ShapeScene scene;
    SphereShapes& s = scene.spheres;
    detail::download(x, s.x);
    detail::download(y, s.y);
    detail::download(z, s.z);
    detail::download(radius, s.radius);
    detail::download(gid, s.body_gid);
    detail::download(shape, s.shape_index);
    detail::download(planes, scene.planes);
    detail::download(boxes, scene.boxes);
    return scene;
  }

  SphereView spheres() const {
    return {thrust::raw_pointer_cast(x.data()),      thrust::raw_pointer_cast(y.data()),
            thrust::raw_pointer_cast(z.data()),      thrust::raw_pointer_cast(radius.data()),
            thrust::raw_pointer_cast(gid.data()),    thrust::raw_pointer_cast(shape.data())};
  }
};

}  // namespace trackcosim::gpu::detail
