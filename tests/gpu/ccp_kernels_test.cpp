// The per-contact building blocks of the CCP solvers, checked against their definitions:
// the friction-cone projection (Tasora-Negrut sec. 3: keep inside, zero in the polar cone,
// orthogonal projection onto the surface otherwise) and the contact tangent basis.

#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "gpu/dynamics/detail/cone_projection.h"

namespace trackcosim::gpu::detail {
namespace {

real tangential(ConeImpulse g) { return std::sqrt(g.u * g.u + g.w * g.w); }

TEST(ConeProjection, KeepsPointsInsideTheCone) {
  const ConeImpulse g{2.0, 0.3, -0.4};  // |t| = 0.5 <= 0.5 * 2
  const ConeImpulse p = project_on_cone(g, 0.5);
  EXPECT_EQ(p.n, g.n);
  EXPECT_EQ(p.u, g.u);
  EXPECT_EQ(p.w, g.w);
}

TEST(ConeProjection, ZeroesThePolarCone) {
  // Polar cone of mu = 0.5: mu |t| <= -n.
  const ConeImpulse p = project_on_cone({-1.0, 0.6, 0.8}, 0.5);  // 0.5 * 1 <= 1
  EXPECT_EQ(p.n, 0);
  EXPECT_EQ(p.u, 0);
  EXPECT_EQ(p.w, 0);
}

TEST(ConeProjection, ProjectsOrthogonallyOntoTheSurface) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> any(-3, 3);
  for (double mu : {0.1, 0.5, 1.0, 2.0}) {
    for (int k = 0; k < 1000; ++k) {
      const ConeImpulse g{any(rng), any(rng), any(rng)};
      const ConeImpulse p = project_on_cone(g, mu);
      // In the cone, and a fixed point of the projection.
      EXPECT_LE(tangential(p), mu * p.n + 1e-12);
      const ConeImpulse q = project_on_cone(p, mu);
      EXPECT_NEAR(q.n, p.n, 1e-12);
      EXPECT_NEAR(q.u, p.u, 1e-12);
      // Optimality of a projection onto a closed convex cone K: p in K, (g - p) . p = 0 and
      // (g - p) in the polar cone, i.e. mu |t(g - p)| <= -(g - p).n.
      const ConeImpulse d{g.n - p.n, g.u - p.u, g.w - p.w};
      EXPECT_NEAR(d.n * p.n + d.u * p.u + d.w * p.w, 0, 1e-10);
      EXPECT_LE(mu * tangential(d), -d.n + 1e-10);
    }
  }
}

TEST(ConeProjection, FrictionlessConeIsTheNormalRay) {
  const ConeImpulse p = project_on_cone({0.7, 0.2, -0.1}, 0);
  EXPECT_EQ(p.n, 0.7);
  EXPECT_EQ(p.u, 0);
  EXPECT_EQ(p.w, 0);
  const ConeImpulse q = project_on_cone({-0.3, 0, 0}, 0);  // pulling contact: no impulse
  EXPECT_EQ(q.n, 0);
}

TEST(TangentBasis, IsOrthonormalAndRightHanded) {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> gauss;
  std::vector<Vec3> normals{{0, 0, 1}, {0, 0, -1}, {1, 0, 0}, {0, 1e-9, -1}};
  for (int k = 0; k < 1000; ++k) normals.push_back({gauss(rng), gauss(rng), gauss(rng)});
  for (Vec3 n : normals) {
    n = (1 / length(n)) * n;
    Vec3 u, w;
    tangent_basis(n, u, w);
    EXPECT_NEAR(length(u), 1, 1e-12);
    EXPECT_NEAR(length(w), 1, 1e-12);
    EXPECT_NEAR(dot(n, u), 0, 1e-12);
    EXPECT_NEAR(dot(n, w), 0, 1e-12);
    EXPECT_NEAR(dot(u, w), 0, 1e-12);
    const Vec3 c = cross(n, u);  // (n, u, w) right-handed
    EXPECT_NEAR(c.x, w.x, 1e-12);
    EXPECT_NEAR(c.y, w.y, 1e-12);
    EXPECT_NEAR(c.z, w.z, 1e-12);
  }
}

}  // namespace
}  // namespace trackcosim::gpu::detail
