// Spheres against static planes and boxes: one thread per sphere loops over the (few) static
// shapes, counts, and after a scan writes, in the same count-scan-write pattern as the bins.

#include "gpu/collision/detail/static_shape_contacts.h"

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/scan.h>
#include <thrust/transform.h>

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

struct CountStaticContacts {
  StaticShapeVisitor visitor;
  TRACKCOSIM_HD std::uint64_t operator()(std::size_t i) const {
    std::uint64_t found = 0;
    visitor.visit(i, [&](GlobalId, ShapeIndex, GlobalId, ShapeIndex, const ContactGeometry&) { ++found; });
    return found;
  }
};

struct WriteStaticContacts {
  StaticShapeVisitor visitor;
  const std::uint64_t* offset;
  ContactWriter out;
  TRACKCOSIM_HD void operator()(std::size_t i) const {
    std::uint64_t slot = offset[i];
    visitor.visit(i, [&](GlobalId ga, ShapeIndex sa, GlobalId gb, ShapeIndex sb, const ContactGeometry& g) {
      out.write(slot++, ga, sa, gb, sb, g);
    });
  }
};

}  // namespace

void find_static_shape_contacts(const DeviceScene& scene, real envelope,
                                thrust::device_vector<std::uint64_t>& offset, DeviceContacts& out,
                                StageClock& clock) {
  const std::size_t n = scene.sphere_count();
  if (n == 0 || (scene.planes.empty() && scene.boxes.empty())) return;
  clock.run(CollisionStage::StaticShapeContacts, [&] {
    const StaticShapeVisitor visitor{scene.spheres(),
                                     thrust::raw_pointer_cast(scene.planes.data()),
                                     scene.planes.size(),
                                     thrust::raw_pointer_cast(scene.boxes.data()),
                                     scene.boxes.size(),
                                     envelope};
    const auto sphere_ids = thrust::counting_iterator<std::size_t>(0);
    offset.resize(n + 1);
    thrust::transform(sphere_ids, sphere_ids + n, offset.begin(), CountStaticContacts{visitor});
    offset[n] = 0;
    thrust::exclusive_scan(offset.begin(), offset.end(), offset.begin(), std::uint64_t{0});
    const std::size_t first = out.size();
    out.resize(first + offset[n]);
    thrust::for_each(sphere_ids, sphere_ids + n,
                     WriteStaticContacts{visitor, thrust::raw_pointer_cast(offset.data()), out.writer(first)});
  });
}

}  // namespace trackcosim::gpu::detail
