// Spheres against static planes and boxes: one thread per sphere loops over the (few) static
// shapes, counts, and after a scan writes, in the same count-scan-write pattern as the bins.

#include "gpu/collision/detail/static_shape_contacts.h"

#include "gpu/collision/detail/count_scan_write.h"

namespace trackcosim::gpu::detail {
namespace {

struct StaticShapeVisitor {
  SphereView spheres;
  const PlaneShape* planes;
  std::size_t plane_count;
  const BoxShape* boxes;
  std::size_t box_count;
  real envelope;

  /// Orders the pair by gid (the static shape is A when its gid is smaller) and reports it.
  template <class OnContact>
  TRACKCOSIM_HD void report(GlobalId gid, ShapeIndex shape, std::size_t sphere, const ContactGeometry& static_first,
                            OnContact& on_contact) const {
    if (!(static_first.distance <= envelope)) return;
    const GlobalId sg = spheres.gid[sphere];
    const ShapeIndex ss = spheres.shape[sphere];
    if (precedes(gid, shape, sg, ss))
      on_contact(gid, shape, sg, ss, static_first);
    else
      on_contact(sg, ss, gid, shape, flipped(static_first));
  }

  template <class OnContact>
  TRACKCOSIM_HD void visit(std::size_t i, OnContact&& on_contact) const {
    const Vec3 c = spheres.center(i);
    const real r = spheres.radius[i];
    for (std::size_t p = 0; p < plane_count; ++p)
      report(planes[p].body_gid, planes[p].shape_index, i, plane_sphere(planes[p], c, r), on_contact);
    for (std::size_t b = 0; b < box_count; ++b) {
      // Bounding-sphere rejection before the exact test: most spheres are far from most boxes.
      const Vec3 d = c - boxes[b].center;
      const real reach = length(boxes[b].half_extents) + r + envelope;
      if (dot(d, d) > reach * reach * real(1.0000001)) continue;
      report(boxes[b].body_gid, boxes[b].shape_index, i, box_sphere(boxes[b], c, r), on_contact);
    }
  }
};

}  // namespace

void find_static_shape_contacts(const DeviceScene& scene, real envelope,
                                thrust::device_vector<std::uint64_t>& offset, DeviceContacts& out,
                                StageClock& clock) {
  const std::size_t n = scene.sphere_count();
  if (n == 0 || (scene.planes.empty() && scene.boxes.empty())) return;
  const StaticShapeVisitor visitor{scene.spheres(),
                                   thrust::raw_pointer_cast(scene.planes.data()),
                                   scene.planes.size(),
                                   thrust::raw_pointer_cast(scene.boxes.data()),
                                   scene.boxes.size(),
                                   envelope};
  constexpr CollisionStage stage = CollisionStage::StaticShapeContacts;
  append_visited_contacts(n, visitor, offset, out, clock, {stage, stage, stage});
}

}  // namespace trackcosim::gpu::detail
