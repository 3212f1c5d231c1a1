// Closed-surface checks (geometry/mesh_check.h).

#include "geometry/mesh_check.h"

#include <algorithm>
#include <map>
#include <utility>

#include "io/config_error.h"
#include "geometry/mesh_mass.h"

namespace trackcosim::geometry {
namespace {

[[noreturn]] void refuse(const std::string& name, const std::string& why) { throw io::ConfigError(name + ": " + why); }

std::string edge_text(std::pair<std::uint32_t, std::uint32_t> e) {
  return "vertices " + std::to_string(e.first) + "-" + std::to_string(e.second);
}

/// Per undirected edge (smaller index first): how often each direction is walked. Ordered map so
/// that "first" in a message is the same on every run.
struct EdgeUse {
  int forward = 0, backward = 0;
};

}  // namespace

void check_mesh(const TriangleMesh& mesh, const std::string& name) {
  if (mesh.triangles.empty()) refuse(name, "empty mesh: no faces");
  const std::size_t n = mesh.vertices.size();
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const auto& f = mesh.triangles[t];
    if (f[0] >= n || f[1] >= n || f[2] >= n) refuse(name, "face " + std::to_string(t) + " names a vertex that does not exist");
  }

  const real side = largest_side(mesh);
  std::size_t degenerate = 0, first_degenerate = 0;
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const auto& f = mesh.triangles[t];
    const Vec3 a = mesh.vertices[f[0]], b = mesh.vertices[f[1]], c = mesh.vertices[f[2]];
    const real area = real(0.5) * length(cross(b - a, c - a));
    if (f[0] == f[1] || f[1] == f[2] || f[0] == f[2] || !(area > real(1e-12) * side * side)) {
      if (degenerate++ == 0) first_degenerate = t;
    }
  }
  if (degenerate > 0) {
    const auto& f = mesh.triangles[first_degenerate];
    refuse(name, "degenerate faces: " + std::to_string(degenerate) + " faces have zero area (first: face " +
                     std::to_string(first_degenerate) + ", vertices " + std::to_string(f[0]) + "-" +
                     std::to_string(f[1]) + "-" + std::to_string(f[2]) + ")");
  }

  std::map<std::pair<std::uint32_t, std::uint32_t>, EdgeUse> edges;
  for (const auto& f : mesh.triangles)
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t a = f[k], b = f[(k + 1) % 3];
      EdgeUse& use = edges[{std::min(a, b), std::max(a, b)}];
      (a < b ? use.forward : use.backward) += 1;
    }
  std::size_t open = 0, shared = 0, flipped = 0;
  std::pair<std::uint32_t, std::uint32_t> first_open, first_shared, first_flipped;
  for (const auto& [edge, use] : edges) {
    const int faces = use.forward + use.backward;
    if (faces == 1 && open++ == 0) first_open = edge;
    if (faces > 2 && shared++ == 0) first_shared = edge;
    if (faces == 2 && use.forward != 1 && flipped++ == 0) first_flipped = edge;
  }
  if (open > 0)
    refuse(name, "open mesh: " + std::to_string(open) + " edges belong to one face only (first: " +
                     edge_text(first_open) + ")");
  if (shared > 0)
    refuse(name, "non-manifold mesh: " + std::to_string(shared) + " edges are shared by more than two faces (first: " +
                     edge_text(first_shared) + ")");
  if (flipped > 0)
    refuse(name, "inconsistently oriented faces: " + std::to_string(flipped) +
                     " edges are walked in the same direction by both their faces (first: " + edge_text(first_flipped) +
                     ")");
  // Closed and oriented, yet flat: two faces back to back pass every check above.
  const double volume = mass_properties(mesh, 1).volume;
  if (!(volume > 1e-12 * double(side) * side * side))
    refuse(name, "encloses no volume: the closed surface is flat (faces back to back)");
}

TriangleMesh read_solid_mesh(const std::filesystem::path& file) {
  TriangleMesh mesh = read_mesh_file(file);
  check_mesh(mesh, file.string());
  orient_outward(mesh);
  return mesh;
}

}  // namespace trackcosim::geometry
