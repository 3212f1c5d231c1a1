// Bad meshes are refused naming the file and the problem (geometry/mesh_check.h): empty, degenerate
// faces, open, non-manifold, inconsistently oriented, flat.

#include <gtest/gtest.h>

#include <string>

#include "geometry/mesh_check.h"
#include "geometry/mesh_file.h"
#include "tests/geometry/mesh_shapes.h"
#include "tests/support/config_errors.h"

namespace trackcosim::geometry {
namespace {

using trackcosim::test::starts_with;

/// The message with which reading and checking `mesh`, written as OBJ to `name`, is refused.
std::string refusal(const TriangleMesh& mesh, const std::string& name) {
  const auto file = test::scratch_file(name);
  write_obj(file, mesh);
  return trackcosim::test::config_error_message(
      [&](const std::string&) { check_mesh(read_mesh_file(file), file.string()); }, name);
}

TEST(MeshCheck, AClosedBoxPasses) { EXPECT_NO_THROW(check_mesh(test::box(1, 2, 3), "box")); }

TEST(MeshCheck, AnEmptyMeshIsRefused) {
  TriangleMesh mesh;
  mesh.vertices = {{0, 0, 0}};
  EXPECT_EQ(refusal(mesh, "empty.obj"), test::scratch_file("empty.obj").string() + ": empty mesh: no faces");
}

TEST(MeshCheck, AnOpenMeshIsRefusedNamingAnEdge) {
  TriangleMesh mesh = test::box(1, 1, 1);
  mesh.triangles.pop_back();  // a hole: its three edges keep one face each
  EXPECT_TRUE(starts_with(refusal(mesh, "open.obj"), test::scratch_file("open.obj").string() +
                                                           ": open mesh: 3 edges belong to one face only (first: vertices "));
}

TEST(MeshCheck, ANonManifoldMeshIsRefused) {
  // Two tetrahedra sharing the edge 0-1: it belongs to four faces.
  TriangleMesh mesh;
  mesh.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, -1, 0}, {0, 0, -1}};
  mesh.triangles = {{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {0, 3, 2}, {0, 4, 1}, {0, 1, 5}, {1, 4, 5}, {0, 5, 4}};
  EXPECT_EQ(refusal(mesh, "fins.obj"),
            test::scratch_file("fins.obj").string() +
                ": non-manifold mesh: 1 edges are shared by more than two faces (first: vertices 0-1)");
}

TEST(MeshCheck, ADegenerateFaceIsRefusedNamingIt) {
  TriangleMesh mesh = test::box(1, 1, 1);
  mesh.vertices.insert(mesh.vertices.end(), {{5, 0, 0}, {6, 0, 0}, {7, 0, 0}});
  mesh.triangles.push_back({8, 9, 10});  // three points on a line
  EXPECT_EQ(refusal(mesh, "flat.stl.obj"),
            test::scratch_file("flat.stl.obj").string() +
                ": degenerate faces: 1 faces have zero area (first: face 12, vertices 8-9-10)");
}

TEST(MeshCheck, AFlippedFaceIsRefused) {
  TriangleMesh mesh = test::box(1, 1, 1);
  std::swap(mesh.triangles[0][1], mesh.triangles[0][2]);
  EXPECT_TRUE(starts_with(refusal(mesh, "flipped.obj"),
                          test::scratch_file("flipped.obj").string() +
                              ": inconsistently oriented faces: 3 edges are walked in the same direction"));
}

TEST(MeshCheck, AFlatClosedSurfaceIsRefused) {
  TriangleMesh mesh;
  mesh.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  mesh.triangles = {{0, 1, 2}, {0, 2, 1}};  // closed and consistently oriented, but back to back
  EXPECT_EQ(refusal(mesh, "sheet.obj"), test::scratch_file("sheet.obj").string() +
                                            ": encloses no volume: the closed surface is flat (faces back to back)");
}

}  // namespace
}  // namespace trackcosim::geometry
