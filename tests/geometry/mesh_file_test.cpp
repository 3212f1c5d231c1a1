// Mesh files (geometry/mesh_file.h): ASCII STL and OBJ polygons read into welded triangles; broken
// files refused naming the file (and the line for text formats).

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "geometry/mesh_check.h"
#include "geometry/mesh_file.h"
#include "geometry/mesh_mass.h"
#include "tests/geometry/mesh_shapes.h"
#include "tests/support/config_errors.h"

namespace trackcosim::geometry {
namespace {

using trackcosim::test::starts_with;

std::filesystem::path write_text(const std::string& name, const std::string& bytes) {
  const auto file = test::scratch_file(name);
  std::ofstream(file, std::ios::binary) << bytes;
  return file;
}

std::string file_refusal(const std::string& name, const std::string& bytes) {
  const auto file = write_text(name, bytes);
  return trackcosim::test::config_error_message([&](const std::string&) { read_mesh_file(file); }, name);
}

std::string facet(const char* a, const char* b, const char* c) {
  return std::string("facet normal 0 0 0\n outer loop\n  vertex ") + a + "\n  vertex " + b + "\n  vertex " + c +
         "\n endloop\nendfacet\n";
}

TEST(MeshFile, AsciiStlCornersAreWeldedIntoATetrahedron) {
  const char *o = "0 0 0", *x = "1 0 0", *y = "0 1 0", *z = "0 0 1";
  const auto file = write_text("tetra.STL", "solid tetra\n" + facet(o, y, x) + facet(o, x, z) + facet(o, z, y) +
                                                facet(x, y, z) + "endsolid tetra\n");
  const TriangleMesh mesh = read_mesh_file(file);
  EXPECT_EQ(mesh.vertices.size(), 4u);
  EXPECT_EQ(mesh.triangles.size(), 4u);
  EXPECT_NEAR(mass_properties(mesh, 1).volume, 1.0 / 6, 1e-15);
}

TEST(MeshFile, ObjQuadsBecomeTriangleFansAndNegativeIndicesCountBack) {
  // The unit cube's six faces as quads, with texture/normal indices and one face in negative indices.
  const auto file = write_text("cube.obj",
                               "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
                               "f 1/1/1 4/1/1 3/1/1 2/1/1\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf -8 -4 -1 -5\n");
  const TriangleMesh mesh = read_mesh_file(file);
  EXPECT_EQ(mesh.triangles.size(), 12u);
  EXPECT_NO_THROW(check_mesh(mesh, file.string()));
  EXPECT_NEAR(mass_properties(mesh, 1).volume, 1, 1e-15);
}

TEST(MeshFile, BrokenFilesAreRefusedNamingTheFile) {
  const std::string truncated = std::string(80, ' ') + std::string("\x02\0\0\0", 4) + std::string(50, '\0');
  EXPECT_TRUE(starts_with(file_refusal("short.stl", truncated),
                          test::scratch_file("short.stl").string() + ": truncated binary STL: the header announces 2"));
  EXPECT_EQ(file_refusal("bad.obj", "v 0 0 0\nv 1 0 0\nf 1 2 3\n"),
            test::scratch_file("bad.obj").string() +
                ":3: face vertex '3' does not name one of the 2 vertices defined so far");
  EXPECT_EQ(file_refusal("part.step", "ISO-10303-21;"),
            test::scratch_file("part.step").string() + ": expected an .obj or .stl mesh file");
  EXPECT_TRUE(starts_with(file_refusal("ascii.stl", "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\n"),
                          test::scratch_file("ascii.stl").string() + ": truncated"));
}

}  // namespace
}  // namespace trackcosim::geometry
