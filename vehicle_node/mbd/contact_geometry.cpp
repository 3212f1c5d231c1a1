#include "vehicle_node/mbd/contact_geometry.h"

#include <algorithm>
#include <cmath>

namespace trackcosim::vehicle::detail {

namespace {
void finish(const V3& c, double r, const V3& n, double gap, ContactPoint& out) {
  out.normal = n;
  out.gap = gap;
  out.point = c - (r + 0.5 * gap) * n;
}
}  // namespace

bool collide_sphere_sphere(const V3& ca, double ra, const V3& cb, double rb, double margin, ContactPoint& out) {
  const V3 d = ca - cb;
  const double dist2 = d.squaredNorm(), reach = ra + rb + margin;
  if (dist2 >= reach * reach) return false;
  const double dist = std::sqrt(dist2);
  // Coincident centres: any direction is as good; +Z keeps it deterministic.
  const V3 n = dist > 1e-12 ? V3(d / dist) : V3::UnitZ();
  finish(ca, ra, n, dist - ra - rb, out);
  return true;
}

bool collide_sphere_cylinder(const V3& c, double r, const V3& cc, const V3& axis, double R, double hw,
                             double margin, ContactPoint& out) {
  const V3 d = c - cc;
  const double t = d.dot(axis);
  const V3 radial = d - t * axis;
  const double rho = radial.norm();
  if (std::abs(t) > hw || rho > R) {
    // Centre outside the solid: distance to the closest point on it.
    const double tc = std::clamp(t, -hw, hw);
    const V3 rc = rho > R ? V3(radial * (R / rho)) : radial;
    const V3 e = d - (tc * axis + rc);
    const double dist = e.norm();
    if (dist - r >= margin) return false;
    finish(c, r, e / dist, dist - r, out);
    return true;
  }
  // Centre inside: leave through the nearer of the curved surface and the end face.
  const double depth_radial = R - rho, depth_face = hw - std::abs(t);
  if (depth_radial <= depth_face) {
    V3 n = rho > 1e-12 ? V3(radial / rho) : V3::UnitZ();
    if (rho <= 1e-12) n -= n.dot(axis) * axis, n.normalize();
    finish(c, r, n, -depth_radial - r, out);
  } else {
    finish(c, r, t >= 0 ? axis : V3(-axis), -depth_face - r, out);
  }
  return true;
}

bool collide_sphere_ground(const V3& c, double r, const Ground& ground, double margin, ContactPoint& out) {
  const double h = ground.height(c.x(), c.y());
  const V3 n = to_eigen(ground.normal(c.x(), c.y())).normalized();
  const double gap = (c - V3(c.x(), c.y(), h)).dot(n) - r;
  if (gap >= margin) return false;
  finish(c, r, n, gap, out);
  return true;
}

}  // namespace trackcosim::vehicle::detail
