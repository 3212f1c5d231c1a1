#include "terrain_node/output/sphere_box_volume.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <vector>

namespace trackcosim::terrain {
namespace {

/// Integral of sqrt(r^2 - X^2) from 0 to x (|x| <= r).
double half_chord_integral(double r, double x) {
  const double t = std::clamp(x / r, -1.0, 1.0);
  return 0.5 * (x * std::sqrt(std::max(0.0, r * r - x * x)) + r * r * std::asin(t));
}

}  // namespace

double disk_rectangle_area(double r, double x0, double x1, double y0, double y1) {
  const double a = std::max(x0, -r), b = std::min(x1, r);
  if (!(r > 0) || a >= b || y0 >= y1) return 0;
  // Between consecutive break points the chord [-s, s] (s = sqrt(r^2 - X^2)) meets [y0, y1]
  // with the same end on each side: a constant or +-s, whose integral is closed form.
  std::array<double, 6> at{a, b, a, a, a, a};
  std::size_t n = 2;
  for (const double y : {y0, y1})
    if (std::abs(y) < r) {
      const double x = std::sqrt(r * r - y * y);
      for (const double p : {-x, x})
        if (p > a && p < b) at[n++] = p;
    }
  for (std::size_t i = 1; i < n; ++i)  // insertion sort of at most 6 points
    for (std::size_t j = i; j > 0 && at[j] < at[j - 1]; --j) std::swap(at[j], at[j - 1]);
  double area = 0;
  for (std::size_t k = 0; k + 1 < n; ++k) {
    const double u = at[k], v = at[k + 1];
    if (v <= u) continue;
    const double m = 0.5 * (u + v), s = std::sqrt(std::max(0.0, r * r - m * m));
    if (std::min(y1, s) <= std::max(y0, -s)) continue;
    const double chord = half_chord_integral(r, v) - half_chord_integral(r, u);
    const double upper = y1 < s ? y1 * (v - u) : chord;
    const double lower = y0 > -s ? y0 * (v - u) : -chord;
    area += upper - lower;
  }
  return area;
}

double sphere_box_volume(Vec3 c, double r, const domain::Aabb& box) {
  const double full = 4.0 / 3.0 * std::numbers::pi * r * r * r;
  if (c.x - r >= box.lo.x && c.x + r <= box.hi.x && c.y - r >= box.lo.y && c.y + r <= box.hi.y &&
      c.z - r >= box.lo.z && c.z + r <= box.hi.z)
    return full;
  const double z0 = std::max(double(box.lo.z), c.z - r), z1 = std::min(double(box.hi.z), c.z + r);
  if (z0 >= z1 || c.x + r <= box.lo.x || c.x - r >= box.hi.x || c.y + r <= box.lo.y || c.y - r >= box.hi.y) return 0;
  // z - c.z = r sin(theta): the disk radius r cos(theta) and dz = r cos(theta) dtheta are smooth
  // in theta, where they have square-root ends in z.
  const double t0 = std::asin(std::clamp((z0 - c.z) / r, -1.0, 1.0));
  const double t1 = std::asin(std::clamp((z1 - c.z) / r, -1.0, 1.0));
  // The cut area has kinks where the disk reaches an edge or a corner of the rectangle: split
  // the angle there so each Gauss panel sees a smooth integrand.
  const double dx0 = box.lo.x - c.x, dx1 = box.hi.x - c.x, dy0 = box.lo.y - c.y, dy1 = box.hi.y - c.y;
  std::vector<double> breaks{t0, t1};
  for (const double d : {dx0, dx1, dy0, dy1, std::hypot(dx0, dy0), std::hypot(dx0, dy1), std::hypot(dx1, dy0),
                         std::hypot(dx1, dy1)})
    if (std::abs(d) < r)
      for (const double t : {std::acos(std::abs(d) / r), -std::acos(std::abs(d) / r)})
        if (t > t0 && t < t1) breaks.push_back(t);
  std::sort(breaks.begin(), breaks.end());
  constexpr std::array<double, 5> node{0.0, -0.5384693101056831, 0.5384693101056831, -0.9061798459386640,
                                       0.9061798459386640};
  constexpr std::array<double, 5> weight{0.5688888888888889, 0.4786286704993665, 0.4786286704993665,
                                         0.2369268850561891, 0.2369268850561891};
  // Within a piece the area still has (rho - edge)^(3/2) ends; the smoothstep map
  // theta = a + (b - a)(3s^2 - 2s^3) flattens them, and Gauss panels in s converge fast.
  constexpr int kPanels = 8;  // per piece
  double volume = 0;
  for (std::size_t k = 0; k + 1 < breaks.size(); ++k) {
    const double a = breaks[k], span = breaks[k + 1] - breaks[k];
    for (int p = 0; p < kPanels; ++p) {
      for (std::size_t q = 0; q < node.size(); ++q) {
        const double u = (p + 0.5 + 0.5 * node[q]) / kPanels;
        const double t = a + span * u * u * (3 - 2 * u);
        const double dt = span * 6 * u * (1 - u) / kPanels;
        const double rho = r * std::cos(t);
        volume += weight[q] * 0.5 * dt * rho * disk_rectangle_area(rho, dx0, dx1, dy0, dy1);
      }
    }
  }
  return volume;
}

}  // namespace trackcosim::terrain
