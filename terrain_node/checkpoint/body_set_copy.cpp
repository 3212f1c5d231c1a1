#include "terrain_node/checkpoint/body_set_copy.h"

#include <algorithm>

namespace trackcosim::terrain {

using gpu::BoxShape;
using gpu::ShapeIndex;

SphereIndex::SphereIndex(const gpu::BodySet& set) {
  start.assign(set.size() + 1, 0);
  for (const std::uint32_t b : set.sphere_body) ++start[b + 1];
  for (std::size_t i = 0; i < set.size(); ++i) start[i + 1] += start[i];
  sphere.resize(set.sphere_body.size());
  std::vector<std::uint32_t> next(start.begin(), start.end() - 1);
  for (std::uint32_t s = 0; s < set.sphere_body.size(); ++s) sphere[next[set.sphere_body[s]]++] = s;
}

gpu::BodyDesc body_desc(const gpu::BodySet& s, std::uint32_t i) {
  gpu::BodyDesc d;
  d.gid = s.gid[i];
  d.position = {s.px[i], s.py[i], s.pz[i]};
  d.orientation = {s.qw[i], s.qx[i], s.qy[i], s.qz[i]};
  d.velocity = {s.vx[i], s.vy[i], s.vz[i]};
  d.angular_velocity = {s.wx[i], s.wy[i], s.wz[i]};
  d.mass = s.mass[i];
  d.inertia = {s.ix[i], s.iy[i], s.iz[i]};
  d.motion = s.motion[i];
  d.friction = s.friction[i];
  d.applied_force = {s.fx[i], s.fy[i], s.fz[i]};
  d.applied_torque = {s.tx[i], s.ty[i], s.tz[i]};
  return d;
}

void copy_body(const gpu::BodySet& from, const SphereIndex& index, std::uint32_t body, gpu::BodySet& to) {
  const std::uint32_t at = to.add_body(body_desc(from, body));
  // Shapes are re-added in their original shape-index order, so contact keys stay the same.
  // Planes and boxes sit on the few fixed and kinematic bodies: a scan over them is cheap.
  struct Shape {
    ShapeIndex order;
    int kind;  // 0 sphere, 1 plane, 2 box
    std::size_t item;
  };
  std::vector<Shape> shapes;
  for (const std::uint32_t k : index.of(body)) shapes.push_back({from.sphere_shape[k], 0, k});
  for (std::size_t p = 0; p < from.plane_body.size(); ++p)
    if (from.plane_body[p] == body) shapes.push_back({from.planes[p].shape_index, 1, p});
  for (std::size_t b = 0; b < from.box_body.size(); ++b)
    if (from.box_body[b] == body) shapes.push_back({from.boxes[b].shape_index, 2, b});
  std::sort(shapes.begin(), shapes.end(), [](const Shape& l, const Shape& r) { return l.order < r.order; });
  for (const Shape& s : shapes) {
    if (s.kind == 0) {
      to.add_sphere(at, {from.sphere_ox[s.item], from.sphere_oy[s.item], from.sphere_oz[s.item]},
                    from.sphere_radius[s.item]);
    } else if (s.kind == 1) {
      to.add_plane(at, from.planes[s.item].point, from.planes[s.item].normal);
    } else {
      const BoxShape& box = from.boxes[s.item];
      to.add_box(at, box.center, box.half_extents, box.orientation);
    }
  }
}

}  // namespace trackcosim::terrain
