#include "vehicle_node/output/body_surfaces.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "io/vtk_xml.h"

namespace trackcosim::vehicle {
namespace {

void add_cell(Surface& s, std::initializer_list<std::uint32_t> points, std::uint8_t type) {
  s.connectivity.insert(s.connectivity.end(), points);
  s.offsets.push_back(static_cast<std::uint32_t>(s.connectivity.size()));
  s.types.push_back(type);
}

/// One cylinder, or the two of a double wheel `gap` apart (as track/tracked_vehicle.cpp's
/// add_wheel_shape builds its contact cylinders).
void add_wheel(Surface& s, const WheelTemplate& w) {
  if (w.gap <= 0) {
    add_cylinder(s, {0, 0, 0}, w.radius, w.width);
    return;
  }
  for (const double sign : {-1.0, 1.0}) add_cylinder(s, {0, sign * 0.5 * (w.gap + w.width), 0}, w.radius, w.width);
}

/// The box that holds every sphere: a shoe without a pad.
void add_sphere_hull(Surface& s, const std::vector<LocalSphere>& spheres) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  Vec3 lo{kInf, kInf, kInf}, hi{-kInf, -kInf, -kInf};
  for (const LocalSphere& sphere : spheres) {
    const Vec3 r{sphere.radius, sphere.radius, sphere.radius};
    const Vec3 a = sphere.offset - r, b = sphere.offset + r;
    lo = {std::min(lo.x, a.x), std::min(lo.y, a.y), std::min(lo.z, a.z)};
    hi = {std::max(hi.x, b.x), std::max(hi.y, b.y), std::max(hi.z, b.z)};
  }
  if (!spheres.empty()) add_box(s, 0.5 * (lo + hi), hi - lo);
}

/// A mesh pad's surface, one polygon per triangle; mirrored in y for the right track, as its
/// spheres are (track/tracked_vehicle.cpp), with the corners reversed so the faces stay outward.
void add_mesh(Surface& s, const geometry::TriangleMesh& mesh, Side side) {
  const auto first = static_cast<std::uint32_t>(s.points.size());
  const bool mirror = side == Side::kRight;
  for (const Vec3& v : mesh.vertices) s.points.push_back(mirror ? Vec3{v.x, -v.y, v.z} : v);
  for (const auto& t : mesh.triangles) {
    if (mirror) add_cell(s, {first + t[0], first + t[2], first + t[1]}, io::vtk::kPolygon);
    else add_cell(s, {first + t[0], first + t[1], first + t[2]}, io::vtk::kPolygon);
  }
}

}  // namespace

void add_box(Surface& s, Vec3 center, Vec3 size) {
  const auto first = static_cast<std::uint32_t>(s.points.size());
  // Point 4 z + 2 y + x: bit set = the + half of that axis.
  for (int corner = 0; corner < 8; ++corner)
    s.points.push_back(center + 0.5 * Vec3{(corner & 1) ? size.x : -size.x, (corner & 2) ? size.y : -size.y,
                                           (corner & 4) ? size.z : -size.z});
  constexpr std::uint32_t kFaces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                                          {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};  // -z +z -y +y -x +x
  for (const auto& f : kFaces) add_cell(s, {first + f[0], first + f[1], first + f[2], first + f[3]}, io::vtk::kQuad);
}

void add_cylinder(Surface& s, Vec3 center, double radius, double width) {
  const auto first = static_cast<std::uint32_t>(s.points.size());
  constexpr auto n = static_cast<std::uint32_t>(kWheelSegments);
  // Point first + 2 i + j: angle i, face j (0: -y, 1: +y); the angle runs from +x to +z.
  for (std::uint32_t i = 0; i < n; ++i) {
    const double a = 2.0 * std::numbers::pi * i / n;
    for (const double y : {-0.5 * width, 0.5 * width})
      s.points.push_back(center + Vec3{radius * std::cos(a), y, radius * std::sin(a)});
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t a = first + 2 * i, b = first + 2 * ((i + 1) % n);
    add_cell(s, {a, a + 1, b + 1, b}, io::vtk::kQuad);
  }
  // Caps: x then z turns counter-clockwise seen from -y, so the -y cap takes the angles upwards.
  for (std::uint32_t face = 0; face < 2; ++face) {
    for (std::uint32_t i = 0; i < n; ++i)
      s.connectivity.push_back(first + 2 * (face == 0 ? i : n - 1 - i) + face);
    s.offsets.push_back(static_cast<std::uint32_t>(s.connectivity.size()));
    s.types.push_back(io::vtk::kPolygon);
  }
}

Surface body_surface(const DrawnBody& body, const VehicleTemplate& model, const std::vector<LocalSphere>& shoe_spheres) {
  Surface s;
  const TrackTemplate& t = model.track;
  switch (body.kind) {
    case BodyKind::kChassis: add_box(s, {0, 0, 0}, chassis_box_size(model.chassis)); break;
    case BodyKind::kSprocket: add_wheel(s, t.sprocket.wheel); break;
    case BodyKind::kIdler: add_wheel(s, t.idler.wheel); break;
    case BodyKind::kRoadWheel: add_wheel(s, t.road_wheels.wheel); break;
    case BodyKind::kRoller: add_wheel(s, t.rollers.wheel); break;
    case BodyKind::kShoe:
      if (t.shoes.pad) add_box(s, {0, 0, 0}, {t.shoes.pad->length, t.shoes.pad->width, t.shoes.pad->thickness});
      else if (t.shoes.pad_mesh) add_mesh(s, *t.shoes.pad_mesh, body.side);
      else add_sphere_hull(s, shoe_spheres);
      break;
  }
  return s;
}

}  // namespace trackcosim::vehicle
