// Sampled fit errors of a sphere set (geometry/sphere_fit_report.h).

#include "geometry/sphere_fit_report.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include "io/config_error.h"

namespace trackcosim::geometry {
namespace {

/// Generalised winding number (van Oosterom and Strackee's solid angle per triangle): about 1
/// inside a closed outward mesh, about 0 outside, without the edge cases of ray casting.
bool inside_solid(const TriangleMesh& mesh, Vec3 p) {
  double solid_angle = 0;
  for (const auto& f : mesh.triangles) {
    const Vec3 a = mesh.vertices[f[0]] - p, b = mesh.vertices[f[1]] - p, c = mesh.vertices[f[2]] - p;
    const double la = length(a), lb = length(b), lc = length(c);
    solid_angle += 2 * std::atan2(double(dot(a, cross(b, c))),
                                  la * lb * lc + dot(a, b) * lc + dot(a, c) * lb + dot(b, c) * la);
  }
  return solid_angle > 2 * std::numbers::pi;
}

/// Closest point of triangle abc to p (Ericson, Real-Time Collision Detection, 5.1.5).
Vec3 closest_on_triangle(Vec3 p, Vec3 a, Vec3 b, Vec3 c) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const Vec3 bp = p - b;
  const double d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + real(d1 / (d1 - d3)) * ab;
  const Vec3 cp = p - c;
  const double d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + real(d2 / (d2 - d6)) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) return b + real((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b);
  const double denom = 1 / (va + vb + vc);
  return a + real(vb * denom) * ab + real(vc * denom) * ac;
}

double distance_to_surface(const TriangleMesh& mesh, Vec3 p) {
  double best = std::numeric_limits<double>::infinity();
  for (const auto& f : mesh.triangles)
    best = std::min(best, double(length(p - closest_on_triangle(p, mesh.vertices[f[0]], mesh.vertices[f[1]],
                                                                 mesh.vertices[f[2]]))));
  return best;
}

/// n nearly even directions on the unit sphere.
std::vector<Vec3> fibonacci_directions(int n) {
  std::vector<Vec3> d(n);
  const double golden = std::numbers::pi * (3 - std::sqrt(5.0));
  for (int i = 0; i < n; ++i) {
    const double z = 1 - (2 * i + 1.0) / n, rho = std::sqrt(1 - z * z);
    d[i] = {real(rho * std::cos(golden * i)), real(rho * std::sin(golden * i)), real(z)};
  }
  return d;
}

}  // namespace

FitReport measure_fit(const TriangleMesh& mesh, const std::vector<Sphere>& spheres, Vec3 origin,
                      const FitSampling& sampling) {
  if (sampling.cap_samples < 1 || sampling.face_steps < 1)
    throw io::ConfigError("fit report: cap samples and face steps must be >= 1, got " +
                      std::to_string(sampling.cap_samples) + " and " + std::to_string(sampling.face_steps));
  FitReport report;
  report.spheres = spheres.size();
  report.part_size = largest_side(mesh);
  // A point on a sphere counts as covered by another only when clearly inside it, so that the
  // corners shared by neighbouring spheres stay on the boundary.
  const double slack = 1e-9 * report.part_size;

  double protrusion = 0;
  const std::vector<Vec3> directions = fibonacci_directions(sampling.cap_samples);
  for (std::size_t i = 0; i < spheres.size(); ++i) {
    const Vec3 centre = spheres[i].centre + origin;
    for (const Vec3& d : directions) {
      const Vec3 p = centre + spheres[i].radius * d;
      bool covered = false;
      for (std::size_t j = 0; j < spheres.size() && !covered; ++j)
        covered = j != i && length(p - (spheres[j].centre + origin)) < spheres[j].radius - slack;
      if (covered) continue;
      ++report.boundary_samples;
      if (!inside_solid(mesh, p)) protrusion = std::max(protrusion, distance_to_surface(mesh, p));
    }
  }

  double gap = 0;
  const int n = sampling.face_steps;
  for (const auto& f : mesh.triangles) {
    const Vec3 a = mesh.vertices[f[0]], b = mesh.vertices[f[1]], c = mesh.vertices[f[2]];
    for (int i = 0; i <= n; ++i)
      for (int j = 0; i + j <= n; ++j) {
        const Vec3 p = a + real(double(i) / n) * (b - a) + real(double(j) / n) * (c - a);
        double outside = std::numeric_limits<double>::infinity();
        for (const Sphere& s : spheres) outside = std::min(outside, double(length(p - (s.centre + origin)) - s.radius));
        gap = std::max(gap, outside);
        ++report.surface_samples;
      }
  }
  report.protrusion = protrusion / report.part_size;
  report.gap = gap / report.part_size;
  return report;
}

}  // namespace trackcosim::geometry
