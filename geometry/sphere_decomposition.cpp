// Sphere fitting, sharp-edge refinement and simplification (geometry/sphere_decomposition.h).

#include "geometry/sphere_decomposition.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <string>

#include "io/config_error.h"
#include "io/number_text.h"

namespace trackcosim::geometry {
namespace {

Vec3 unit_normal(Vec3 a, Vec3 b, Vec3 c) {
  const Vec3 n = cross(b - a, c - a);
  return (1 / length(n)) * n;
}

/// The sphere through a, b, c whose centre lies d = f r below the face (outward normal).
Sphere fit_sphere(Vec3 a, Vec3 b, Vec3 c, double f) {
  const Vec3 u = b - a, v = c - a, w = cross(u, v);
  const Vec3 circumcentre = a + (1 / (2 * dot(w, w))) * (dot(u, u) * cross(v, w) + dot(v, v) * cross(w, u));
  const double circumradius = length(circumcentre - a);
  const double r = circumradius / std::sqrt(1 - f * f);
  return {circumcentre - real(f * r) * unit_normal(a, b, c), real(r)};
}

double circumradius(const std::array<Vec3, 3>& c) {
  const double ab = length(c[1] - c[0]), bc = length(c[2] - c[1]), ca = length(c[0] - c[2]);
  return ab * bc * ca / (2 * length(cross(c[1] - c[0], c[2] - c[0])));
}

/// How far the sphere of ratio f through a piece of circumradius R reaches beyond the piece: above
/// it, r - d = R sqrt((1 - f) / (1 + f)), or sideways past its circumcircle, r - R.
double bulge(double R, double f) {
  return R * std::max(std::sqrt((1 - f) / (1 + f)), 1 / std::sqrt(1 - f * f) - 1);
}

/// What makes an original face sharp: its corners and edges next to a face whose normal turns by
/// more than the threshold. Children are refined again only where they touch these.
struct SharpFeatures {
  std::array<bool, 3> corner{};  // corner k
  std::array<bool, 3> edge{};    // edge k -> k+1
  bool any() const { return corner[0] || corner[1] || corner[2]; }
};

std::vector<SharpFeatures> find_sharp_features(const TriangleMesh& mesh, double cos_threshold) {
  const std::size_t faces = mesh.triangles.size();
  std::vector<Vec3> normals(faces);
  std::vector<std::vector<std::uint32_t>> faces_at(mesh.vertices.size());
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::uint32_t>> faces_on_edge;
  for (std::uint32_t t = 0; t < faces; ++t) {
    const auto& f = mesh.triangles[t];
    normals[t] = unit_normal(mesh.vertices[f[0]], mesh.vertices[f[1]], mesh.vertices[f[2]]);
    for (int k = 0; k < 3; ++k) {
      faces_at[f[k]].push_back(t);
      faces_on_edge[{std::min(f[k], f[(k + 1) % 3]), std::max(f[k], f[(k + 1) % 3])}].push_back(t);
    }
  }
  const auto turns = [&](std::uint32_t s, std::uint32_t t) { return dot(normals[s], normals[t]) < cos_threshold; };
  std::vector<SharpFeatures> sharp(faces);
  for (std::uint32_t t = 0; t < faces; ++t) {
    const auto& f = mesh.triangles[t];
    for (int k = 0; k < 3; ++k) {
      for (std::uint32_t s : faces_at[f[k]]) sharp[t].corner[k] = sharp[t].corner[k] || turns(s, t);
      for (std::uint32_t s : faces_on_edge[{std::min(f[k], f[(k + 1) % 3]), std::max(f[k], f[(k + 1) % 3])}])
        sharp[t].edge[k] = sharp[t].edge[k] || turns(s, t);
    }
  }
  return sharp;
}

struct Piece {
  std::array<Vec3, 3> corners;
  std::uint32_t face;  // the original face it was cut from
};

double distance_to_segment(Vec3 p, Vec3 a, Vec3 b) {
  const Vec3 ab = b - a;
  const double t = std::clamp(double(dot(p - a, ab) / dot(ab, ab)), 0.0, 1.0);
  return length(p - (a + real(t) * ab));
}

bool touches_sharp_feature(const Piece& piece, const std::array<Vec3, 3>& face, const SharpFeatures& sharp, double eps) {
  for (const Vec3& p : piece.corners)
    for (int k = 0; k < 3; ++k) {
      if (sharp.corner[k] && length(p - face[k]) < eps) return true;
      if (sharp.edge[k] && distance_to_segment(p, face[k], face[(k + 1) % 3]) < eps) return true;
    }
  return false;
}

std::array<Piece, 4> split_in_four(const Piece& p) {
  const auto& [a, b, c] = p.corners;
  const Vec3 ab = real(0.5) * (a + b), bc = real(0.5) * (b + c), ca = real(0.5) * (c + a);
  return {Piece{{a, ab, ca}, p.face}, Piece{{ab, b, bc}, p.face}, Piece{{ca, bc, c}, p.face},
          Piece{{ab, bc, ca}, p.face}};
}

/// Halves a piece across its longest edge: a sliver (a CAD export's long thin triangle) becomes
/// two pieces nearer to equilateral, where splitting in four would keep its shape and multiply
/// the spheres along its width.
std::array<Piece, 2> bisect_longest_edge(const Piece& p) {
  // The longest edge runs from corner k to k + 1. Edges of equal length (an isosceles piece) are
  // told apart by their order, not by rounding: a moved mesh must give the same pieces.
  std::array<double, 3> lengths{};
  for (int e = 0; e < 3; ++e) lengths[e] = length(p.corners[(e + 1) % 3] - p.corners[e]);
  const double longest = *std::max_element(lengths.begin(), lengths.end());
  int k = 0;
  while (lengths[k] < longest * (1 - 1e-9)) ++k;
  const Vec3 a = p.corners[k], b = p.corners[(k + 1) % 3], c = p.corners[(k + 2) % 3];
  const Vec3 m = real(0.5) * (a + b);
  return {Piece{{a, m, c}, p.face}, Piece{{m, b, c}, p.face}};  // both keep the face's orientation
}

/// Drops spheres lying inside a larger kept one (within `slack`). Largest first, ties broken by
/// index, so the result does not depend on anything but the input order.
std::vector<Sphere> drop_contained(std::vector<Sphere> spheres, double slack) {
  std::stable_sort(spheres.begin(), spheres.end(), [](const Sphere& p, const Sphere& q) { return p.radius > q.radius; });
  std::vector<Sphere> kept;
  for (const Sphere& s : spheres) {
    const bool inside = std::any_of(kept.begin(), kept.end(), [&](const Sphere& k) {
      return length(s.centre - k.centre) + s.radius <= k.radius + slack;
    });
    if (!inside) kept.push_back(s);
  }
  return kept;
}

void check_options(const DecompositionOptions& o) {
  const auto ratio_ok = [](double f) { return f >= 0 && f < 1; };
  if (!ratio_ok(o.f)) throw io::ConfigError("sphere decomposition: f must be in [0, 1), got " + io::number_to_string(o.f));
  if (!ratio_ok(o.refined_f))
    throw io::ConfigError("sphere decomposition: refined f must be in [0, 1), got " + io::number_to_string(o.refined_f));
  if (!(o.sharp_angle_deg > 0 && o.sharp_angle_deg < 180))
    throw io::ConfigError("sphere decomposition: sharp angle must be in (0, 180) degrees, got " +
                      io::number_to_string(o.sharp_angle_deg));
  if (o.refine_levels < 0 || o.refine_levels > kMaxRefineLevels)
    throw io::ConfigError("sphere decomposition: refinement levels must be 0 to " + io::number_to_string(kMaxRefineLevels) +
                      ", got " + io::number_to_string(o.refine_levels));
  if (!(o.max_protrusion >= 0 && o.max_protrusion < 1))
    throw io::ConfigError("sphere decomposition: max protrusion must be in [0, 1) (a fraction of the part's size; 0: "
                      "the fixed refinement alone), got " + io::number_to_string(o.max_protrusion));
  if (!(o.merge_tolerance >= 0))
    throw io::ConfigError("sphere decomposition: merge tolerance must be >= 0, got " + io::number_to_string(o.merge_tolerance));
}

}  // namespace

Decomposition decompose_into_spheres(const TriangleMesh& mesh, Vec3 origin, const DecompositionOptions& options) {
  check_options(options);
  const double size = largest_side(mesh);
  const std::vector<SharpFeatures> sharp =
      find_sharp_features(mesh, std::cos(options.sharp_angle_deg * std::numbers::pi / 180));
  const auto corners_of = [&](std::uint32_t t) {
    const auto& f = mesh.triangles[t];
    return std::array<Vec3, 3>{mesh.vertices[f[0]], mesh.vertices[f[1]], mesh.vertices[f[2]]};
  };

  // With max_protrusion, a piece that bulges too far is split whatever its level or place.
  const double largest_bulge = options.max_protrusion * size;
  const auto too_large = [&](const Piece& p, double f) {
    // The margin keeps a piece right at the bound from splitting or not by rounding alone.
    return options.max_protrusion > 0 && bulge(circumradius(p.corners), f) > largest_bulge * (1 + 1e-9);
  };

  Decomposition out;
  std::vector<Piece> refined;  // the current level's pieces to split or fit
  for (std::uint32_t t = 0; t < mesh.triangles.size(); ++t) {
    const Piece whole{corners_of(t), t};
    const bool at_sharp = sharp[t].any();
    if (at_sharp && (options.refine_levels > 0 || options.max_protrusion > 0)) ++out.sharp_faces;
    // The fixed refinement splits sharp faces in four; the bound alone decides with max_protrusion.
    if (at_sharp && options.refine_levels > 0 && options.max_protrusion == 0) {
      for (const Piece& p : split_in_four(whole)) refined.push_back(p);
    } else if (too_large(whole, at_sharp ? options.refined_f : options.f)) {
      for (const Piece& p : bisect_longest_edge(whole)) refined.push_back(p);
    } else {
      out.spheres.push_back(fit_sphere(whole.corners[0], whole.corners[1], whole.corners[2], options.f));
    }
  }
  // A bisection halves a piece's area as a split in four quarters it: twice the levels.
  const int levels = options.max_protrusion > 0 ? 2 * kMaxRefineLevels : options.refine_levels;
  for (int level = 1; level <= levels && !refined.empty(); ++level) {
    std::vector<Piece> next;
    for (const Piece& p : refined) {
      const bool at_edge = touches_sharp_feature(p, corners_of(p.face), sharp[p.face], 1e-9 * size);
      if (at_edge && level < options.refine_levels && options.max_protrusion == 0) {
        for (const Piece& q : split_in_four(p)) next.push_back(q);
      } else if (level < levels && too_large(p, at_edge ? options.refined_f : options.f)) {
        for (const Piece& q : bisect_longest_edge(p)) next.push_back(q);
      } else {
        // Pieces away from the sharp feature lie in the smooth part of the face: the flatter
        // spheres of f fit them better than the refined ratio meant for the edge.
        const double f = at_edge ? options.refined_f : options.f;
        out.spheres.push_back(fit_sphere(p.corners[0], p.corners[1], p.corners[2], f));
      }
    }
    refined = std::move(next);
  }

  if (options.merge_tolerance > 0) {
    const std::size_t before = out.spheres.size();
    out.spheres = drop_contained(std::move(out.spheres), options.merge_tolerance * size);
    out.merged = before - out.spheres.size();
  }
  for (Sphere& s : out.spheres) s.centre = s.centre - origin;
  return out;
}

}  // namespace trackcosim::geometry
