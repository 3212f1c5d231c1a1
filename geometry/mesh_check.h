#pragma once
// The checks a surface mesh must pass before it is taken as the boundary of a solid: mass
// properties by the divergence theorem (geometry/mesh_mass.h) and the inside/outside tests of the fit
// report (geometry/sphere_decomposition.h) are only meaningful for a closed, 2-manifold, consistently
// oriented surface without zero-area faces. A mesh that fails is refused, never repaired: a
// repaired CAD export would silently have another mass than the part.

#include <filesystem>
#include <string>

#include "geometry/mesh_file.h"

namespace trackcosim::geometry {

/// Throws io::ConfigError "<name>: <problem>: <count> ... (first: ...)" for the first problem found,
/// checked in this order:
///   empty mesh (no faces), face with an out-of-range or repeated vertex index,
///   degenerate faces (area below 1e-12 of the bounding box's largest side squared),
///   open mesh (edges that belong to one face only),
///   non-manifold mesh (edges shared by more than two faces),
///   inconsistent orientation (an edge walked in the same direction by both its faces),
///   no enclosed volume (below 1e-12 of the largest side cubed: faces back to back).
/// A vertex where two otherwise separate sheets touch (a "bow tie") is not detected.
void check_mesh(const TriangleMesh& mesh, const std::string& name);

/// The mesh of a part as every user of one needs it: read (read_mesh_file), refused unless it
/// bounds a solid (check_mesh, named by its path), and turned outward (orient_outward).
TriangleMesh read_solid_mesh(const std::filesystem::path& file);

}  // namespace trackcosim::geometry
