#pragma once
// Device-resident contact list (structure of arrays) and the writer view kernels fill it with.
// Only .cu files include this header.

#include <array>

#include <thrust/device_vector.h>

#include "gpu/collision/contact_list.h"
#include "gpu/collision/detail/narrow_phase.h"
#include "gpu/collision/shape_scene.h"
#include "math/host_device.h"
#include "gpu/memory/host_copy.h"

namespace trackcosim::gpu::detail {

struct ContactWriter {
  GlobalId *gid_a, *gid_b;
  ShapeIndex *shape_a, *shape_b;
  real *distance, *nx, *ny, *nz, *ax, *ay, *az, *bx, *by, *bz;

  TRACKCOSIM_HD void write(std::size_t i, GlobalId ga, ShapeIndex sa, GlobalId gb, ShapeIndex sb,
                           const ContactGeometry& g) const {
    gid_a[i] = ga;
    gid_b[i] = gb;
    shape_a[i] = sa;
    shape_b[i] = sb;
    distance[i] = g.distance;
    nx[i] = g.normal.x;
    ny[i] = g.normal.y;
    nz[i] = g.normal.z;
    ax[i] = g.point_a.x;
    ay[i] = g.point_a.y;
    az[i] = g.point_a.z;
    bx[i] = g.point_b.x;
    by[i] = g.point_b.y;
    bz[i] = g.point_b.z;
  }
};

struct DeviceContacts {
  thrust::device_vector<GlobalId> gid_a, gid_b;
  thrust::device_vector<ShapeIndex> shape_a, shape_b;
  thrust::device_vector<real> distance, nx, ny, nz, ax, ay, az, bx, by, bz;

  std::size_t size() const { return distance.size(); }

  void resize(std::size_t n) {
    gid_a.resize(n);
    gid_b.resize(n);
    shape_a.resize(n);
    shape_b.resize(n);
    for (auto* v : real_fields()) v->resize(n);
  }

  std::array<thrust::device_vector<real>*, 10> real_fields() {
    return {&distance, &nx, &ny, &nz, &ax, &ay, &az, &bx, &by, &bz};
  }
  std::array<const thrust::device_vector<real>*, 10> real_fields() const {
    return {&distance, &nx, &ny, &nz, &ax, &ay, &az, &bx, &by, &bz};
  }

  /// The list on the host: what a caller outside gpu/ reads (14 arrays, about 100 bytes per
  /// contact), so only when it asks.
  ContactList download() const {
    ContactList out;
    detail::download(gid_a, out.gid_a);
    detail::download(gid_b, out.gid_b);
    detail::download(shape_a, out.shape_a);
    detail::download(shape_b, out.shape_b);
    const std::array<std::vector<real>*, 10> host{&out.distance, &out.nx, &out.ny, &out.nz, &out.ax,
                                                  &out.ay,       &out.az, &out.bx, &out.by, &out.bz};
    const auto device = real_fields();
    for (std::size_t f = 0; f < host.size(); ++f) detail::download(*device[f], *host[f]);
    return out;
  }

  /// Writer for entries [first, first + count) — the caller has resized.
  ContactWriter writer(std::size_t first = 0) {
    auto p = [first](auto& v) { return thrust::raw_pointer_cast(v.data()) + first; };
    return {p(gid_a), p(gid_b), p(shape_a), p(shape_b), p(distance), p(nx), p(ny),
            p(nz),    p(ax),    p(ay),    p(az),      p(bx),       p(by), p(bz)};
  }
};

}  // namespace trackcosim::gpu::detail
