// Mass properties by signed tetrahedra (geometry/mesh_mass.h).

#include "geometry/mesh_mass.h"

#include <Eigen/Eigenvalues>
#include <algorithm>

namespace trackcosim::geometry {
namespace {

struct Moments {
  double volume = 0;
  Eigen::Vector3d first = Eigen::Vector3d::Zero();  // integral of x dV
  Eigen::Matrix3d second = Eigen::Matrix3d::Zero();  // integral of x x^T dV
};

Eigen::Vector3d to_eigen(Vec3 v) { return {double(v.x), double(v.y), double(v.z)}; }

Eigen::Vector3d box_centre(const TriangleMesh& mesh) {
  Eigen::Vector3d lo = to_eigen(mesh.vertices.front()), hi = lo;
  for (const Vec3& v : mesh.vertices) lo = lo.cwiseMin(to_eigen(v)), hi = hi.cwiseMax(to_eigen(v));
  return 0.5 * (lo + hi);
}

Moments moments_about(const TriangleMesh& mesh, const Eigen::Vector3d& origin) {
  Moments m;
  for (const auto& f : mesh.triangles) {
    const Eigen::Vector3d a = to_eigen(mesh.vertices[f[0]]) - origin, b = to_eigen(mesh.vertices[f[1]]) - origin,
                          c = to_eigen(mesh.vertices[f[2]]) - origin;
    const double det = a.dot(b.cross(c));
    const Eigen::Vector3d s = a + b + c;
    m.volume += det / 6;
    m.first += det / 24 * s;
    m.second += det / 120 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
  }
  return m;
}

}  // namespace

bool orient_outward(TriangleMesh& mesh) {
  if (mesh.triangles.empty() || moments_about(mesh, box_centre(mesh)).volume >= 0) return false;
  for (auto& f : mesh.triangles) std::swap(f[1], f[2]);
  return true;
}

MassProperties mass_properties(const TriangleMesh& mesh, double density) {
  const Eigen::Vector3d origin = box_centre(mesh);
  Moments m = moments_about(mesh, origin);
  if (m.volume < 0) m.volume = -m.volume, m.first = -m.first, m.second = -m.second;  // inward faces

  MassProperties p;
  p.volume = m.volume;
  p.mass = density * m.volume;
  const Eigen::Vector3d centre = m.first / m.volume;
  const Eigen::Vector3d world_centre = centre + origin;
  p.centre_of_mass = {real(world_centre.x()), real(world_centre.y()), real(world_centre.z())};
  const Eigen::Matrix3d covariance = density * (m.second - m.volume * centre * centre.transpose());
  const Eigen::Matrix3d inertia = covariance.trace() * Eigen::Matrix3d::Identity() - covariance;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) p.inertia[i][j] = inertia(i, j);

  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> solver(inertia);  // eigenvalues ascending
  Eigen::Matrix3d axes = solver.eigenvectors();
  if (axes.determinant() < 0) axes.col(2) = -axes.col(2);
  for (int k = 0; k < 3; ++k) {
    p.principal_moments[k] = solver.eigenvalues()(k);
    p.principal_axes[k] = {real(axes(0, k)), real(axes(1, k)), real(axes(2, k))};
  }
  return p;
}

}  // namespace trackcosim::geometry
