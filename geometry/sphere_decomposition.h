#pragma once
// Spherical decomposition of a part (Heyn 2009, thesis section 3.2): the sphere-only collision
// pipeline handles any geometry given as a union of spheres.
//
// 1. Fit: through the three corners of each surface triangle passes a family of spheres whose
//    centres lie on the line through the triangle's circumcentre C along its normal N. The ratio
//    f = d / r (distance d of the centre below the face over the radius r) picks one: with R the
//    circumradius, r^2 = R^2 + d^2 gives r = R / sqrt(1 - f^2) and d = f r. The thesis reaches
//    the same point by iterating d <- f r (its figure 3.24); the closed form needs no tolerance.
//    f = 0 gives the smallest sphere (bumpy surface), f -> 1 a flat one that bulges out at the
//    face's neighbours. Since each triangle lies inside its circumcircle, which is its sphere's
//    cross-section, the spheres cover the whole surface: the gap is zero unless simplification
//    drops spheres.
// 2. Refine (3.2.3): a face is sharp when a face sharing one of its corners has a normal more
//    than `sharp_angle_deg` away. Sharp faces are split into four at their edge midpoints and
//    refitted. Further levels split again only the children that touch a sharp edge or a sharp
//    corner, so the small spheres gather at the edges. The last level's pieces at the edge get
//    `refined_f` (the thesis used f = 0.7 and 0); pieces that stopped splitting because they do not
//    touch the edge keep f, as the smooth interior of the face they are.
//    With max_protrusion (the default), every piece is also split until its sphere's own bulge is
//    small against the part: the mesh no longer sets the resolution (a 12-face cube, CAD slivers).
// 3. Simplify (optional): a sphere that lies inside a larger one, within `merge_tolerance` times
//    the part's size, is dropped (near-duplicates at shared corners, refined children).
// The spheres are written relative to the part's centre of mass, the body frame's origin.

#include <cstddef>
#include <vector>

#include "geometry/mesh_file.h"

namespace trackcosim::geometry {

struct Sphere {
  Vec3 centre;
  real radius;
};

/// Each level splits a face at a sharp edge in four: 8 levels make 65,536 pieces of one face.
inline constexpr int kMaxRefineLevels = 8;

struct DecompositionOptions {
  double f = 0.7;                // centre ratio d/r of the spheres on original faces, in [0, 1)
  double refined_f = 0.0;        // centre ratio of the refined pieces at sharp edges, in [0, 1)
  double sharp_angle_deg = 30;   // normals further apart than this make an edge sharp
  int refine_levels = 2;         // times a face at a sharp edge is split in four (0: no refinement)
  double merge_tolerance = 0;    // relative to the part's size; 0: keep every sphere
  // > 0 (relative to the part's size): every piece, at a sharp edge or not, is halved across its
  // longest edge until its sphere's own bulge, above the piece or sideways past its circumcircle,
  // is at most this, up to 2 kMaxRefineLevels halvings; refine_levels (the fixed refinement) then
  // does not apply. The fixed refinement alone (0) leaves a 0.1 m cube protruding 17.6% and
  // slivers 12.5% (docs/meshes.md, "Protrusion within a bound").
  double max_protrusion = 0.05;
};

struct Decomposition {
  std::vector<Sphere> spheres;     // relative to `origin`
  std::size_t sharp_faces = 0;     // original faces that were refined
  std::size_t merged = 0;          // spheres dropped by simplification
};

/// `mesh` must have passed check_mesh and orient_outward (normals out of the solid). Throws
/// io::ConfigError for options out of range. `origin` (normally the centre of mass) is subtracted from
/// every centre.
Decomposition decompose_into_spheres(const TriangleMesh& mesh, Vec3 origin, const DecompositionOptions& options);

}  // namespace trackcosim::geometry
