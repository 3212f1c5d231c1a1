#include "terrain_node/generators/elevation_surface.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace trackcosim::terrain {

ElevationSurface ElevationSurface::grid(Rectangle area, std::size_t columns, std::size_t rows,
                                        std::vector<real> heights) {
  if (columns < 2 || rows < 2 || heights.size() != columns * rows)
    throw std::invalid_argument("elevation grid: need at least 2 x 2 heights, rows x columns of them");
  ElevationSurface s;
  s.area_ = area;
  s.columns_ = columns;
  s.rows_ = rows;
  s.heights_ = std::move(heights);
  const auto [lo, hi] = std::minmax_element(s.heights_.begin(), s.heights_.end());
  s.lowest_ = *lo;
  s.highest_ = *hi;
  return s;
}

ElevationSurface ElevationSurface::mesh(std::vector<Vec3> vertices, std::vector<std::array<std::uint32_t, 3>> triangles) {
  if (vertices.empty() || triangles.empty()) throw std::invalid_argument("elevation mesh: no triangles");
  ElevationSurface s;
  s.vertices_ = std::move(vertices);
  s.triangles_ = std::move(triangles);
  s.area_ = {s.vertices_[0].x, s.vertices_[0].y, s.vertices_[0].x, s.vertices_[0].y};
  s.lowest_ = s.highest_ = s.vertices_[0].z;
  for (const Vec3& v : s.vertices_) {
    s.area_ = {std::min(s.area_.x_min, v.x), std::min(s.area_.y_min, v.y), std::max(s.area_.x_max, v.x),
               std::max(s.area_.y_max, v.y)};
    s.lowest_ = std::min(s.lowest_, v.z);
    s.highest_ = std::max(s.highest_, v.z);
  }
  s.index_triangles();
  return s;
}

void ElevationSurface::index_triangles() {
  // About two triangles per bucket: a query then tests a handful of triangles.
  const double cells = std::max<double>(1, double(triangles_.size()) / 2);
  const double w = std::max<double>(area_.x_max - area_.x_min, 1e-12), h = std::max<double>(area_.y_max - area_.y_min, 1e-12);
  const double edge = std::sqrt(w * h / cells);
  buckets_x_ = std::clamp<std::size_t>(std::size_t(w / edge), 1, 4096);
  buckets_y_ = std::clamp<std::size_t>(std::size_t(h / edge), 1, 4096);
  auto bucket_range = [&](const std::array<std::uint32_t, 3>& t, std::size_t out[4]) {
    real x0 = vertices_[t[0]].x, x1 = x0, y0 = vertices_[t[0]].y, y1 = y0;
    for (const std::uint32_t v : t) {
      x0 = std::min(x0, vertices_[v].x), x1 = std::max(x1, vertices_[v].x);
      y0 = std::min(y0, vertices_[v].y), y1 = std::max(y1, vertices_[v].y);
    }
    auto bx = [&](real x) { return std::min(buckets_x_ - 1, std::size_t((x - area_.x_min) / w * double(buckets_x_))); };
    auto by = [&](real y) { return std::min(buckets_y_ - 1, std::size_t((y - area_.y_min) / h * double(buckets_y_))); };
    out[0] = bx(x0), out[1] = bx(x1), out[2] = by(y0), out[3] = by(y1);
  };
  std::vector<std::uint32_t> count(buckets_x_ * buckets_y_ + 1, 0);
  std::size_t r[4];
  for (const auto& t : triangles_) {
    bucket_range(t, r);
    for (std::size_t j = r[2]; j <= r[3]; ++j)
      for (std::size_t i = r[0]; i <= r[1]; ++i) ++count[j * buckets_x_ + i + 1];
  }
  for (std::size_t k = 1; k < count.size(); ++k) count[k] += count[k - 1];
  bucket_start_ = count;
  bucket_triangles_.resize(count.back());
  for (std::uint32_t n = 0; n < triangles_.size(); ++n) {
    bucket_range(triangles_[n], r);
    for (std::size_t j = r[2]; j <= r[3]; ++j)
      for (std::size_t i = r[0]; i <= r[1]; ++i) bucket_triangles_[count[j * buckets_x_ + i]++] = n;
  }
}

std::optional<real> ElevationSurface::height(real x, real y) const {
  return triangles_.empty() ? grid_height(x, y) : mesh_height(x, y);
}

std::optional<real> ElevationSurface::grid_height(real x, real y) const {
  if (!area_.contains(x, y)) return std::nullopt;
  // Fractional column from x_min, fractional row from y_max (row 0 is the top).
  const double u = double(x - area_.x_min) / double(area_.x_max - area_.x_min) * double(columns_ - 1);
  const double v = double(area_.y_max - y) / double(area_.y_max - area_.y_min) * double(rows_ - 1);
  const std::size_t c = std::min(columns_ - 2, std::size_t(u)), r = std::min(rows_ - 2, std::size_t(v));
  const double fu = u - double(c), fv = v - double(r);
  auto at = [&](std::size_t cc, std::size_t rr) { return double(heights_[rr * columns_ + cc]); };
  const double top = at(c, r) * (1 - fu) + at(c + 1, r) * fu;
  const double bottom = at(c, r + 1) * (1 - fu) + at(c + 1, r + 1) * fu;
  return real(top * (1 - fv) + bottom * fv);
}

std::optional<real> ElevationSurface::mesh_height(real x, real y) const {
  if (!area_.contains(x, y)) return std::nullopt;
  const double w = std::max<double>(area_.x_max - area_.x_min, 1e-12), h = std::max<double>(area_.y_max - area_.y_min, 1e-12);
  const std::size_t i = std::min(buckets_x_ - 1, std::size_t((x - area_.x_min) / w * double(buckets_x_)));
  const std::size_t j = std::min(buckets_y_ - 1, std::size_t((y - area_.y_min) / h * double(buckets_y_)));
  const std::size_t b = j * buckets_x_ + i;
  std::optional<real> best;
  for (std::uint32_t k = bucket_start_[b]; k < bucket_start_[b + 1]; ++k) {
    const auto& t = triangles_[bucket_triangles_[k]];
    const Vec3 a = vertices_[t[0]], p = vertices_[t[1]], q = vertices_[t[2]];
    // Barycentric coordinates of (x, y) in the triangle's x-y projection.
    const double d = double(p.y - q.y) * (a.x - q.x) + double(q.x - p.x) * (a.y - q.y);
    if (std::abs(d) < 1e-300) continue;  // vertical triangle: no height to interpolate
    const double l0 = (double(p.y - q.y) * (x - q.x) + double(q.x - p.x) * (y - q.y)) / d;
    const double l1 = (double(q.y - a.y) * (x - q.x) + double(a.x - q.x) * (y - q.y)) / d;
    const double l2 = 1 - l0 - l1;
    constexpr double eps = -1e-12;  // points on a shared edge belong to both triangles
    if (l0 < eps || l1 < eps || l2 < eps) continue;
    const real z = real(l0 * a.z + l1 * p.z + l2 * q.z);
    if (!best || z > *best) best = z;
  }
  return best;
}

}  // namespace trackcosim::terrain
