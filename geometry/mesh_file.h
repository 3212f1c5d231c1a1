#pragma once
// Triangle surface meshes read from OBJ and STL files (binary or ASCII), for the spherical
// decomposition of parts (geometry/sphere_decomposition.h). STL stores each triangle with its own copy
// of its corners, so corners with bit-identical coordinates are welded into one vertex: edge
// adjacency, and with it the closed-mesh check (geometry/mesh_check.h), needs shared vertices.

#include <array>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "math/vec3.h"

namespace trackcosim::geometry {

struct TriangleMesh {
  std::vector<Vec3> vertices;
  std::vector<std::array<std::uint32_t, 3>> triangles;  // counter-clockwise seen from outside
};

/// The part's size that fit errors are measured against: the largest side of the mesh's
/// axis-aligned bounding box (0 for a mesh without vertices).
real largest_side(const TriangleMesh& mesh);

/// Reads `.obj` or `.stl` (by extension, case-insensitive). Throws io::ConfigError naming the file
/// (and the line for text formats, `<file>:<line>: ...`) for unreadable, truncated or malformed
/// files. Says nothing about whether the mesh is closed: see check_mesh.
TriangleMesh read_mesh_file(const std::filesystem::path& file);

/// An OBJ file whatever its name: vertices (`v x y z`) and faces (`f a b c ...`, polygons split
/// into fans, `a/b/c` and negative indices accepted). Also the terrain's elevation meshes.
TriangleMesh read_obj_file(const std::filesystem::path& file);

/// Writers, for tests and for tools that hand meshes on.
void write_obj(const std::filesystem::path& file, const TriangleMesh& mesh);
void write_binary_stl(const std::filesystem::path& file, const TriangleMesh& mesh);

}  // namespace trackcosim::geometry
