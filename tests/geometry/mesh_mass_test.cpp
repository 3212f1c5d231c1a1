// Mass properties of meshed solids (geometry/mesh_mass.h) against the analytic solids, each mesh written
// as OBJ and as binary STL and read back (geometry/mesh_file.h), all within 0.5%:
//   box a x b x c:         V = abc, I_k = m (sum of the other two sides squared) / 12
//   cylinder R, H:         V = pi R^2 H, I_axis = m R^2 / 2, I_perp = m (3 R^2 + H^2) / 12
//                          (128-gon prism: its area falls short of the circle's by 0.04%)
//   sphere R:              V = 4/3 pi R^3, I = 2/5 m R^2
//                          (icosphere split 4 times, 5120 faces: the inscribed polyhedron's
//                          volume falls short by about 0.2%, its moment by about 0.3%)
// The box is turned and every solid moved off the origin, so that the centre and the principal
// axes are tested too.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "geometry/mesh_check.h"
#include "geometry/mesh_file.h"
#include "geometry/mesh_mass.h"
#include "tests/geometry/mesh_shapes.h"

namespace trackcosim::geometry {
namespace {

constexpr double kTolerance = 0.005;
constexpr double kDensity = 7800;  // steel, kg/m^3
const Vec3 kOffset{1.5, -2, 0.7};

void expect_relative(double actual, double expected, const char* what) {
  EXPECT_NEAR(actual, expected, kTolerance * std::abs(expected)) << what;
}

/// The mesh written as OBJ and as STL, read back, checked and measured: both must agree with `check`.
template <typename Check>
void for_both_formats(const TriangleMesh& mesh, const std::string& stem, Check check) {
  for (const std::string ext : {".obj", ".stl"}) {
    const auto file = test::scratch_file(stem + ext);
    ext == ".obj" ? write_obj(file, mesh) : write_binary_stl(file, mesh);
    TriangleMesh read = read_mesh_file(file);
    EXPECT_EQ(read.triangles.size(), mesh.triangles.size()) << file;
    EXPECT_EQ(read.vertices.size(), mesh.vertices.size()) << file << ": STL corners welded";
    check_mesh(read, file.string());
    EXPECT_FALSE(orient_outward(read)) << file;
    SCOPED_TRACE(file.string());
    check(mass_properties(read, kDensity), largest_side(read));
  }
}

void expect_centre(const MassProperties& p, Vec3 expected, double size) {
  EXPECT_LT(length(p.centre_of_mass - expected), kTolerance * size);
}

TEST(MeshMass, TurnedBoxMatchesAnalyticMassCentreAndPrincipalAxes) {
  const double a = 0.4, b = 0.25, c = 0.1;
  const Quat turn{std::cos(0.35), 0.267 * std::sin(0.35), 0.535 * std::sin(0.35), 0.802 * std::sin(0.35)};
  const double norm = std::sqrt(turn.w * turn.w + turn.x * turn.x + turn.y * turn.y + turn.z * turn.z);
  const Quat q{turn.w / norm, turn.x / norm, turn.y / norm, turn.z / norm};
  TriangleMesh mesh = test::box(a, b, c);
  for (Vec3& v : mesh.vertices) v = rotate(q, v) + kOffset;
  for_both_formats(mesh, "box", [&](const MassProperties& p, double size) {
    const double m = kDensity * a * b * c;
    expect_relative(p.volume, a * b * c, "volume");
    expect_relative(p.mass, m, "mass");
    expect_centre(p, rotate(q, Vec3{real(a / 2), real(b / 2), real(c / 2)}) + kOffset, size);
    // Ascending moments: about the long side first.
    expect_relative(p.principal_moments[0], m * (b * b + c * c) / 12, "I about the side a");
    expect_relative(p.principal_moments[1], m * (a * a + c * c) / 12, "I about the side b");
    expect_relative(p.principal_moments[2], m * (a * a + b * b) / 12, "I about the side c");
    const Vec3 sides[3] = {rotate(q, {1, 0, 0}), rotate(q, {0, 1, 0}), rotate(q, {0, 0, 1})};
    for (int k = 0; k < 3; ++k) EXPECT_GT(std::abs(dot(p.principal_axes[k], sides[k])), 0.999) << "axis " << k;
  });
}

TEST(MeshMass, CylinderMatchesAnalyticMassAndInertia) {
  const double r = 0.3, h = 0.8;
  TriangleMesh mesh = test::cylinder(r, h, 128);
  test::translate(mesh, kOffset);
  for_both_formats(mesh, "cylinder", [&](const MassProperties& p, double size) {
    const double v = std::numbers::pi * r * r * h, m = kDensity * v;
    expect_relative(p.volume, v, "volume");
    expect_relative(p.mass, m, "mass");
    expect_centre(p, kOffset + Vec3{0, 0, real(h / 2)}, size);
    expect_relative(p.principal_moments[0], m * r * r / 2, "I about the axis");
    expect_relative(p.principal_moments[1], m * (3 * r * r + h * h) / 12, "I across the axis");
    expect_relative(p.principal_moments[2], m * (3 * r * r + h * h) / 12, "I across the axis");
    EXPECT_GT(std::abs(p.principal_axes[0].z), 0.999);
    EXPECT_NEAR(p.inertia[0][1], 0, 1e-6 * p.principal_moments[2]);
  });
}

TEST(MeshMass, IcosphereMatchesAnalyticSphere) {
  const double r = 0.5;
  TriangleMesh mesh = test::icosphere(r, 4);
  test::translate(mesh, kOffset);
  for_both_formats(mesh, "icosphere", [&](const MassProperties& p, double size) {
    const double v = 4.0 / 3 * std::numbers::pi * r * r * r, m = kDensity * v;
    expect_relative(p.volume, v, "volume");
    expect_relative(p.mass, m, "mass");
    expect_centre(p, kOffset, size);
    for (int k = 0; k < 3; ++k) expect_relative(p.principal_moments[k], 0.4 * m * r * r, "I");
  });
}

TEST(MeshMass, InwardFacesAreTurnedOutAndGiveTheSameMass) {
  TriangleMesh mesh = test::box(1, 2, 3);
  for (auto& f : mesh.triangles) std::swap(f[1], f[2]);
  EXPECT_NEAR(mass_properties(mesh, 1).volume, 6, 1e-12);
  EXPECT_TRUE(orient_outward(mesh));
  EXPECT_FALSE(orient_outward(mesh));
  EXPECT_NEAR(mass_properties(mesh, 1).volume, 6, 1e-12);
}

}  // namespace
}  // namespace trackcosim::geometry
