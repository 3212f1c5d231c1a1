#pragma once
// Mass properties of the solid a closed surface mesh bounds (geometry/mesh_check.h must have passed),
// for a uniform density. Each face and the origin span a tetrahedron whose signed volume is
// det[a b c]/6; the signed tetrahedra sum to the solid (divergence theorem), and so do their first
// moments det/24 (a+b+c) and second moments
//   C = det/120 (a a^T + b b^T + c c^T + s s^T),  s = a + b + c
// (the canonical tetrahedron's covariance mapped by [a b c]). The inertia tensor about the
// centre of mass is rho (tr(C') I - C'), with C' = C - V x_c x_c^T. The origin is put at the
// bounding box's centre first, so that the sums do not cancel for a part far from (0,0,0).

#include <array>

#include "geometry/mesh_file.h"

namespace trackcosim::geometry {

struct MassProperties {
  double volume = 0;                             // m^3
  double mass = 0;                               // kg
  Vec3 centre_of_mass{0, 0, 0};                  // m, in the mesh's frame
  std::array<std::array<double, 3>, 3> inertia{};  // kg m^2, about the centre of mass, mesh axes
  std::array<double, 3> principal_moments{};     // kg m^2, ascending
  std::array<Vec3, 3> principal_axes{};          // unit vectors, one per moment, right-handed set
};

/// Needs a closed, consistently oriented mesh; the orientation may be inward (the volume comes out
/// negative and is flipped): see orient_outward.
MassProperties mass_properties(const TriangleMesh& mesh, double density);

/// Reverses every face if the mesh's signed volume is negative (normals pointing inward), so that
/// face normals (b - a) x (c - a) point out of the solid. Returns whether it flipped.
bool orient_outward(TriangleMesh& mesh);

}  // namespace trackcosim::geometry
