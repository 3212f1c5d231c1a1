#pragma once
// Closed test solids as triangle meshes, faces oriented outward, for the mesh tests: an icosphere,
// a box and a cylinder (a prism over a regular polygon). All three are convex, so each face is
// oriented by the side its centroid lies on seen from the centre.

#include <cmath>
#include <filesystem>
#include <map>
#include <numbers>
#include <string>
#include <utility>

#include "geometry/mesh_file.h"

namespace trackcosim::geometry::test {

inline void orient_convex(TriangleMesh& mesh, Vec3 centre) {
  for (auto& f : mesh.triangles) {
    const Vec3 a = mesh.vertices[f[0]], b = mesh.vertices[f[1]], c = mesh.vertices[f[2]];
    if (dot(cross(b - a, c - a), real(1.0 / 3) * (a + b + c) - centre) < 0) std::swap(f[1], f[2]);
  }
}

inline void translate(TriangleMesh& mesh, Vec3 by) {
  for (Vec3& v : mesh.vertices) v = v + by;
}

/// Icosahedron split `levels` times (each face into four), vertices pushed onto the sphere.
inline TriangleMesh icosphere(double radius, int levels) {
  const double t = (1 + std::sqrt(5.0)) / 2;
  TriangleMesh m;
  for (const auto& v : {Vec3{-1, t, 0}, Vec3{1, t, 0}, Vec3{-1, -t, 0}, Vec3{1, -t, 0}, Vec3{0, -1, t}, Vec3{0, 1, t},
                        Vec3{0, -1, -t}, Vec3{0, 1, -t}, Vec3{t, 0, -1}, Vec3{t, 0, 1}, Vec3{-t, 0, -1}, Vec3{-t, 0, 1}})
    m.vertices.push_back(real(radius / length(v)) * v);
  m.triangles = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
                 {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
                 {3, 8, 9},   {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  for (int level = 0; level < levels; ++level) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> midpoint;
    const auto middle = [&](std::uint32_t a, std::uint32_t b) {
      const auto key = std::make_pair(std::min(a, b), std::max(a, b));
      if (const auto it = midpoint.find(key); it != midpoint.end()) return it->second;
      const Vec3 p = m.vertices[a] + m.vertices[b];
      m.vertices.push_back(real(radius / length(p)) * p);
      return midpoint[key] = std::uint32_t(m.vertices.size() - 1);
    };
    std::vector<std::array<std::uint32_t, 3>> finer;
    for (const auto& [a, b, c] : m.triangles) {
      const std::uint32_t ab = middle(a, b), bc = middle(b, c), ca = middle(c, a);
      finer.insert(finer.end(), {{a, ab, ca}, {ab, b, bc}, {ca, bc, c}, {ab, bc, ca}});
    }
    m.triangles = std::move(finer);
  }
  orient_convex(m, {0, 0, 0});
  return m;
}

/// Box [0, a] x [0, b] x [0, c].
inline TriangleMesh box(double a, double b, double c) {
  TriangleMesh m;
  for (int i = 0; i < 8; ++i) m.vertices.push_back({real(i & 1 ? a : 0), real(i & 2 ? b : 0), real(i & 4 ? c : 0)});
  for (const auto& q : {std::array<std::uint32_t, 4>{0, 1, 3, 2}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 3, 7, 6},
                        {0, 2, 6, 4}, {1, 3, 7, 5}}) {
    m.triangles.push_back({q[0], q[1], q[2]});
    m.triangles.push_back({q[0], q[2], q[3]});
  }
  orient_convex(m, {real(a / 2), real(b / 2), real(c / 2)});
  return m;
}

/// Cylinder of `radius` about the z axis, z in [0, height], its round side a prism of `segments`
/// faces, each cut into `rings` rectangles along the axis (2 triangles each); the caps are fans
/// about their centres.
inline TriangleMesh cylinder(double radius, double height, int segments, int rings = 1) {
  TriangleMesh m;
  const auto at = [&](int k, int ring) { return std::uint32_t((k % segments) * (rings + 1) + ring); };
  for (int k = 0; k < segments; ++k) {
    const double angle = 2 * std::numbers::pi * k / segments;
    for (int ring = 0; ring <= rings; ++ring)
      m.vertices.push_back({real(radius * std::cos(angle)), real(radius * std::sin(angle)), real(height * ring / rings)});
  }
  const auto bottom = std::uint32_t(m.vertices.size()), top = bottom + 1;
  m.vertices.push_back({0, 0, 0});
  m.vertices.push_back({0, 0, real(height)});
  for (int k = 0; k < segments; ++k) {
    for (int ring = 0; ring < rings; ++ring)
      m.triangles.insert(m.triangles.end(), {{at(k, ring), at(k + 1, ring), at(k + 1, ring + 1)},
                                             {at(k, ring), at(k + 1, ring + 1), at(k, ring + 1)}});
    m.triangles.insert(m.triangles.end(), {{bottom, at(k + 1, 0), at(k, 0)}, {top, at(k, rings), at(k + 1, rings)}});
  }
  orient_convex(m, {0, 0, real(height / 2)});
  return m;
}

inline std::filesystem::path scratch_file(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "trackcosim_mesh_test";
  std::filesystem::create_directories(dir);
  return dir / name;
}

}  // namespace trackcosim::geometry::test
