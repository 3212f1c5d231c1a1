#include "vehicle_node/mbd/collision.h"

namespace trackcosim::vehicle::detail {

namespace {
constexpr std::uint32_t kGroundPrim = 0xffffffffu;
}

void CollisionWorld::add_spheres(int body, const std::vector<V3>& centers, const std::vector<double>& radii,
                                 std::uint32_t family) {
  ShapeGroup g{body, family, static_cast<int>(prims_.size()), static_cast<int>(centers.size()),
               PrimKind::kSphere, V3::Zero(), 0.0};
  for (std::size_t i = 0; i < centers.size(); ++i) {
    prims_.push_back({body, PrimKind::kSphere, centers[i], V3::UnitZ(), radii[i], 0.0});
    g.bound_center += centers[i] / static_cast<double>(centers.size());
  }
  for (std::size_t i = 0; i < centers.size(); ++i)
    g.bound_radius = std::max(g.bound_radius, (centers[i] - g.bound_center).norm() + radii[i]);
  groups_.push_back(g);
}

void CollisionWorld::add_cylinder(int body, const V3& center, const V3& axis, double radius, double half_width,
                                  std::uint32_t family) {
  groups_.push_back({body, family, static_cast<int>(prims_.size()), 1, PrimKind::kCylinder, center,
                     std::sqrt(radius * radius + half_width * half_width)});
  prims_.push_back({body, PrimKind::kCylinder, center, axis, radius, half_width});
}

void CollisionWorld::set_family_collides(std::uint32_t fa, std::uint32_t fb, bool collides) {
  if (collides) family_pairs_.insert(pair_key(fa, fb));
  else family_pairs_.erase(pair_key(fa, fb));
}

void CollisionWorld::set_ground_collides(std::uint32_t family, bool collides) {
  if (collides) ground_off_.erase(family);
  else ground_off_.insert(family);
}

void CollisionWorld::exclude_pair(int a, int b) {
  excluded_bodies_.insert(pair_key(static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b)));
}

void CollisionWorld::collide(const BodyStore& bodies, const Ground* ground, double mu_ground, double mu_bodies,
                             double margin, std::vector<Contact>& out) {
  out.clear();
  world_center_.resize(prims_.size());
  world_axis_.resize(prims_.size());
  for (std::size_t i = 0; i < prims_.size(); ++i) {
    const Primitive& p = prims_[i];
    world_center_[i] = bodies.x[p.body] + bodies.q[p.body] * p.center;
    if (p.kind == PrimKind::kCylinder) world_axis_[i] = bodies.q[p.body] * p.axis;
  }
  group_center_.resize(groups_.size());
  for (std::size_t g = 0; g < groups_.size(); ++g)
    group_center_[g] = bodies.x[groups_[g].body] + bodies.q[groups_[g].body] * groups_[g].bound_center;

  // Ground: every sphere of every group whose family touches the ground.
  if (ground) {
    for (const ShapeGroup& g : groups_) {
      if (g.kind != PrimKind::kSphere || bodies.fixed(g.body) || ground_off_.count(g.family)) continue;
      for (int i = g.first; i < g.first + g.count; ++i) {
        Contact c;
        if (!collide_sphere_ground(world_center_[i], prims_[i].radius, *ground, margin, c.geo)) continue;
        c.body_a = g.body;
        c.body_b = -1;
        c.prim_a = i;
        c.prim_b = -1;
        c.mu = mu_ground;
        c.key = std::uint64_t(i) << 32 | kGroundPrim;
        out.push_back(c);
      }
    }
  }
  // Body-body: group pairs that may touch, bounding spheres first.
  for (std::size_t i = 0; i < groups_.size(); ++i) {
    for (std::size_t j = i + 1; j < groups_.size(); ++j) {
      const ShapeGroup &ga = groups_[i], &gb = groups_[j];
      if (ga.body == gb.body || (bodies.fixed(ga.body) && bodies.fixed(gb.body))) continue;
      if (ga.kind == PrimKind::kCylinder && gb.kind == PrimKind::kCylinder) continue;
      if (!family_pairs_.count(pair_key(ga.family, gb.family))) continue;
      const double reach = ga.bound_radius + gb.bound_radius + margin;
      if ((group_center_[i] - group_center_[j]).squaredNorm() >= reach * reach) continue;
      if (excluded_bodies_.count(pair_key(static_cast<std::uint32_t>(ga.body), static_cast<std::uint32_t>(gb.body))))
        continue;
      // Sphere sets come first so the normal always pushes the sphere body off the cylinder.
      if (ga.kind == PrimKind::kCylinder) collide_groups(gb, ga, mu_bodies, margin, out);
      else collide_groups(ga, gb, mu_bodies, margin, out);
    }
  }
}

void CollisionWorld::collide_groups(const ShapeGroup& ga, const ShapeGroup& gb, double mu, double margin,
                                    std::vector<Contact>& out) const {
  for (int i = ga.first; i < ga.first + ga.count; ++i) {
    for (int k = gb.first; k < gb.first + gb.count; ++k) {
      Contact c;
      const Primitive &pa = prims_[i], &pb = prims_[k];
      const bool hit = pb.kind == PrimKind::kCylinder
                           ? collide_sphere_cylinder(world_center_[i], pa.radius, world_center_[k], world_axis_[k],
                                                     pb.radius, pb.half_width, margin, c.geo)
                           : collide_sphere_sphere(world_center_[i], pa.radius, world_center_[k], pb.radius, margin,
                                                   c.geo);
      if (!hit) continue;
      c.body_a = ga.body;
      c.body_b = gb.body;
      c.prim_a = i;
      c.prim_b = k;
      c.mu = mu;
      c.key = std::uint64_t(i) << 32 | std::uint32_t(k);
      out.push_back(c);
    }
  }
}

}  // namespace trackcosim::vehicle::detail
