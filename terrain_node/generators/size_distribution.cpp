#include "terrain_node/generators/size_distribution.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace trackcosim::terrain {

SizeDistribution SizeDistribution::uniform(real min, real max) {
  SizeDistribution d;
  d.min = min;
  d.max = max;
  return d;
}

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::numbers::sqrt2); }

double inverse_normal_cdf(double p) {
  static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                                 1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                                 6.680131188771972e+01,  -1.328068155288572e+01};
  static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                                 -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                                 3.754408661907416e+00};
  p = std::clamp(p, 1e-300, 1 - 1e-16);
  const double low = 0.02425;
  double x;
  if (p < low) {
    const double q = std::sqrt(-2 * std::log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p <= 1 - low) {
    const double q = p - 0.5, r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  } else {
    const double q = std::sqrt(-2 * std::log(1 - p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  // One Halley step: the approximation alone is good to 1.15e-9.
  const double e = normal_cdf(x) - p;
  const double u = e * std::sqrt(2 * std::numbers::pi) * std::exp(x * x / 2);
  return x - u / (1 + x * u / 2);
}

namespace {

/// A sieve class's share of the count, before normalising: mass fractions weigh 1 / r^3.
double count_weight(const SieveClass& c, bool mass_fractions) {
  const double r = c.radius;
  return mass_fractions ? c.fraction / (r * r * r) : double(c.fraction);
}

}  // namespace

std::vector<double> SizeDistribution::class_count_probabilities() const {
  std::vector<double> w;
  double sum = 0;
  for (const SieveClass& c : classes) {
    w.push_back(count_weight(c, mass_fractions));
    sum += w.back();
  }
  for (double& x : w) x /= sum;
  return w;
}

real SizeDistribution::sample(double u) const {
  switch (kind) {
    case Kind::Uniform:
      return min + (max - min) * u;
    case Kind::Normal: {
      // Inverse transform restricted to [cdf(min), cdf(max)]: the exact clipped normal.
      const double lo = normal_cdf((min - mean) / std), hi = normal_cdf((max - mean) / std);
      const double r = mean + std * inverse_normal_cdf(lo + (hi - lo) * u);
      return real(std::clamp(r, double(min), double(max)));
    }
    case Kind::Sieve: {
      // Two passes without allocation: this runs once per generated particle.
      double sum = 0;
      for (const SieveClass& c : classes) sum += count_weight(c, mass_fractions);
      double cumulative = 0;
      for (std::size_t i = 0; i + 1 < classes.size(); ++i) {
        cumulative += count_weight(classes[i], mass_fractions) / sum;
        if (u < cumulative) return classes[i].radius;
      }
      return classes.back().radius;
    }
  }
  return max;
}

double SizeDistribution::mean_cubed_radius() const {
  if (kind == Kind::Sieve) {
    const std::vector<double> p = class_count_probabilities();
    double m = 0;
    for (std::size_t i = 0; i < p.size(); ++i) m += p[i] * std::pow(double(classes[i].radius), 3);
    return m;
  }
  // Midpoint rule over u: exact enough (1e-7 relative) for turning a packing fraction into a count.
  constexpr int n = 4096;
  double m = 0;
  for (int i = 0; i < n; ++i) m += std::pow(double(sample((i + 0.5) / n)), 3);
  return m / n;
}

}  // namespace trackcosim::terrain
