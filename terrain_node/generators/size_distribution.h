#pragma once
// Particle radius distributions, usable by every generator (docs/terrain-config.md, "Size
// distributions"): uniform in [min, max], a normal clipped to [min, max], or a sieve curve (a
// list of sizes with their mass or count fractions, as a grading test reports them). A radius
// is drawn from one uniform number u in [0, 1) by inverting the distribution, so a generator
// spends exactly one draw per radius whatever the kind, and uniform(min, max) gives the same
// bits as the lattice's original min + (max - min) u.

#include <vector>

#include "math/vec3.h"

namespace trackcosim::terrain {

struct SieveClass {
  real radius = 0;    ///< m
  real fraction = 0;  ///< as given (mass or count), > 0; normalised over the list
};

struct SizeDistribution {
  enum class Kind { Uniform, Normal, Sieve };
  Kind kind = Kind::Uniform;
  real min = 0, max = 0;   ///< uniform: the range; normal: the clip range; sieve: smallest, largest class
  real mean = 0, std = 0;  ///< normal, before clipping
  std::vector<SieveClass> classes;  ///< sieve, increasing radius
  bool mass_fractions = true;       ///< sieve: fractions of mass (else of count)

  static SizeDistribution uniform(real min, real max);

  /// The radius whose cumulative probability is u (u in [0, 1)).
  real sample(double u) const;
  real largest() const { return max; }
  /// E[r^3]: with the density, the mean particle volume that turns a packing fraction into a count.
  double mean_cubed_radius() const;
  /// Count probability of each sieve class (mass fractions divided by r^3, normalised).
  std::vector<double> class_count_probabilities() const;
};

/// Inverse of the standard normal CDF (Acklam's rational approximation, refined by one Halley
/// step against std::erfc: relative error below 1e-12 over (0, 1)).
double inverse_normal_cdf(double p);
double normal_cdf(double x);

}  // namespace trackcosim::terrain
