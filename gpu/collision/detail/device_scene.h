#pragma once
// Device-resident copies of the shape scene and raw-pointer views of them for the functors.
// Only .cu files include this header (it pulls in Thrust).

#include <thrust/device_vector.h>

#include "gpu/collision/shape_scene.h"
#include "gpu/math/host_device.h"

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
    x.assign(s.x.begin(), s.x.end());
    y.assign(s.y.begin(), s.y.end());
    z.assign(s.z.begin(), s.z.end());
    radius.assign(s.radius.begin(), s.radius.end());
    gid.assign(s.body_gid.begin(), s.body_gid.end());
    shape.assign(s.shape_index.begin(), s.shape_index.end());
    planes.assign(scene.planes.begin(), scene.planes.end());
    boxes.assign(scene.boxes.begin(), scene.boxes.end());
  }

  SphereView spheres() const {
    return {thrust::raw_pointer_cast(x.data()),      thrust::raw_pointer_cast(y.data()),
            thrust::raw_pointer_cast(z.data()),      thrust::raw_pointer_cast(radius.data()),
            thrust::raw_pointer_cast(gid.data()),    thrust::raw_pointer_cast(shape.data())};
  }
};

}  // namespace trackcosim::gpu::detail
