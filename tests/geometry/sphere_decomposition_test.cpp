// The spherical decomposition (geometry/sphere_decomposition.h) and its sampled fit report
// (geometry/sphere_fit_report.h) on an icosphere, a box and a cylinder.
//
// The thesis' fixed fit (max_protrusion 0): on the icosphere (convex, no sharp edge at 30 degrees)
// each face's sphere rises above the face by at most r - d = R sqrt((1 - f) / (1 + f)) (R its
// circumradius), the bound the protrusion must stay under; on the box and cylinder (sharp edges)
// the protrusion is held to the figures measured when this was written (docs/meshes.md) plus a
// quarter, and refinement must lower it. The default fit (max_protrusion 0.05) keeps a 0.1 m cube
// of 12 faces and a 0.1 m cylinder of CAD slivers within 5%, where the fixed fit reached 17.6% and
// 12.5%. The spheres through each face's corners cover its triangle, so the gap is zero without
// simplification.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "io/config_error.h"
#include "geometry/mesh_mass.h"
#include "geometry/sphere_decomposition.h"
#include "geometry/sphere_fit_report.h"
#include "tests/geometry/mesh_shapes.h"

namespace trackcosim::geometry {
namespace {

struct Fitted {
  Decomposition set;
  FitReport fit;
};

Fitted decompose(const TriangleMesh& mesh, const DecompositionOptions& options) {
  const Vec3 centre = mass_properties(mesh, 1000).centre_of_mass;
  Fitted out{decompose_into_spheres(mesh, centre, options), {}};
  out.fit = measure_fit(mesh, out.set.spheres, centre);
  std::printf("%zu spheres, %zu sharp faces, protrusion %.4f%%, gap %.4f%%\n", out.fit.spheres, out.set.sharp_faces,
              100 * out.fit.protrusion, 100 * out.fit.gap);
  return out;
}

double largest_circumradius(const TriangleMesh& mesh) {
  double largest = 0;
  for (const auto& f : mesh.triangles) {
    const Vec3 a = mesh.vertices[f[0]], b = mesh.vertices[f[1]], c = mesh.vertices[f[2]];
    const double ab = length(b - a), bc = length(c - b), ca = length(a - c);
    largest = std::max(largest, ab * bc * ca / (2 * length(cross(b - a, c - a))));
  }
  return largest;
}

DecompositionOptions fixed_fit() {
  DecompositionOptions thesis;
  thesis.max_protrusion = 0;
  return thesis;
}

TEST(SphereDecomposition, IcosphereProtrudesLessThanTheCapHeightBound) {
  const TriangleMesh mesh = test::icosphere(0.5, 3);
  for (const double f : {0.0, 0.7}) {
    DecompositionOptions options = fixed_fit();
    options.f = f;
    const Fitted fitted = decompose(mesh, options);
    EXPECT_EQ(fitted.set.spheres.size(), mesh.triangles.size());
    EXPECT_EQ(fitted.set.sharp_faces, 0u);
    const double bound = largest_circumradius(mesh) * std::sqrt((1 - f) / (1 + f)) / fitted.fit.part_size;
    EXPECT_LE(fitted.fit.protrusion, bound) << "f = " << f;
    EXPECT_GE(fitted.fit.protrusion, 0.5 * bound) << "f = " << f << ": sampling should find most of the cap";
    EXPECT_LT(fitted.fit.gap, 1e-9);
  }
}

TEST(SphereDecomposition, BoxRefinementAtSharpEdgesLowersTheProtrusion) {
  const TriangleMesh mesh = test::box(0.4, 0.25, 0.1);
  DecompositionOptions plain = fixed_fit();
  plain.refine_levels = 0;
  const Fitted coarse = decompose(mesh, plain);
  const Fitted refined = decompose(mesh, fixed_fit());
  EXPECT_EQ(coarse.set.spheres.size(), 12u);
  EXPECT_EQ(refined.set.sharp_faces, 12u);
  EXPECT_LT(refined.fit.protrusion, coarse.fit.protrusion);
  EXPECT_LT(refined.fit.protrusion, 0.18);  // measured 14.5%
  EXPECT_LT(refined.fit.gap, 1e-9);
}

TEST(SphereDecomposition, CylinderProtrusionStaysWithinTheMeasuredTolerance) {
  const Fitted fitted = decompose(test::cylinder(0.3, 0.8, 32, 13), fixed_fit());
  EXPECT_LT(fitted.fit.protrusion, 0.058);  // measured 4.64%
  EXPECT_LT(fitted.fit.gap, 1e-9);
}

TEST(SphereDecomposition, TheDefaultFitKeepsACoarseCubeWithinFivePercent) {
  const TriangleMesh cube = test::box(0.1, 0.1, 0.1);  // 12 faces
  ASSERT_EQ(cube.triangles.size(), 12u);
  const Fitted thesis = decompose(cube, fixed_fit());
  const Fitted bounded = decompose(cube, DecompositionOptions{});
  EXPECT_GT(thesis.fit.protrusion, 0.15);  // measured 17.6%: the mesh set the spheres' size
  EXPECT_LE(bounded.fit.protrusion, 0.05);  // measured 4.39%, 1632 spheres
  EXPECT_LT(bounded.fit.gap, 1e-9);
  EXPECT_EQ(bounded.set.sharp_faces, 12u);
}

TEST(SphereDecomposition, TheDefaultFitKeepsACylinderOfSliversWithinFivePercent) {
  // A CAD export: one long thin rectangle per side segment (64 of them, 4.9 mm x 100 mm).
  const TriangleMesh slivers = test::cylinder(0.05, 0.1, 64, 1);
  const Fitted thesis = decompose(slivers, fixed_fit());
  const Fitted bounded = decompose(slivers, DecompositionOptions{});
  EXPECT_GT(thesis.fit.protrusion, 0.10);  // measured 12.5%
  EXPECT_LE(bounded.fit.protrusion, 0.05);  // measured 3.66%, 6656 spheres
  EXPECT_LT(bounded.fit.gap, 1e-9);
}

TEST(SphereDecomposition, SpheresAreRelativeToTheCentreOfMass) {
  TriangleMesh mesh = test::box(0.4, 0.25, 0.1);
  const Decomposition here = decompose(mesh, {}).set;
  test::translate(mesh, {3, -1, 2});
  const Decomposition moved = decompose(mesh, {}).set;
  ASSERT_EQ(here.spheres.size(), moved.spheres.size());
  for (std::size_t i = 0; i < here.spheres.size(); ++i) {
    EXPECT_LT(length(here.spheres[i].centre - moved.spheres[i].centre), 1e-12);
    EXPECT_NEAR(here.spheres[i].radius, moved.spheres[i].radius, 1e-12);
  }
}

TEST(SphereDecomposition, SimplificationDropsContainedSpheresAndReportsTheGap) {
  const TriangleMesh mesh = test::cylinder(0.3, 0.8, 16, 6);
  DecompositionOptions merging;
  merging.merge_tolerance = 0.02;
  const Fitted all = decompose(mesh, {}), fewer = decompose(mesh, merging);
  EXPECT_GT(fewer.set.merged, 0u);
  EXPECT_EQ(fewer.set.spheres.size() + fewer.set.merged, all.set.spheres.size());
  EXPECT_LE(fewer.fit.gap, merging.merge_tolerance);  // a dropped sphere lay within the slack of a kept one
}

TEST(SphereDecomposition, OptionsOutOfRangeAreRefused) {
  DecompositionOptions bad;
  bad.f = 1;
  EXPECT_THROW(decompose_into_spheres(test::box(1, 1, 1), {0, 0, 0}, bad), io::ConfigError);
  DecompositionOptions negative;
  negative.max_protrusion = -0.01;
  EXPECT_THROW(decompose_into_spheres(test::box(1, 1, 1), {0, 0, 0}, negative), io::ConfigError);
}

}  // namespace
}  // namespace trackcosim::geometry
