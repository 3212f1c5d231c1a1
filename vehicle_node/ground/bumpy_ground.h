#pragma once
// The bumpy rigid ground of standalone mode: a height field z = base + sum_k a_k sin(kx_k x +
// ky_k y + phase_k), smooth and analytic, so height() and normal() are exact and cheap (the
// engine calls them per contact sphere per step). Two ways to fill the sum: sinusoids listed
// in the config, or a seeded smooth random field (components with random directions,
// wavelengths in [wavelength, 2 wavelength] and phases, from a fixed-formula generator so a
// seed gives the same ground on every platform).

#include <cstdint>
#include <vector>

#include "vehicle_node/mbd/ground.h"

namespace trackcosim::vehicle {

struct Sinusoid {
  double amplitude = 0.0;   ///< m
  double wavelength = 1.0;  ///< m
  double direction = 0.0;   ///< heading of the wave vector from +x towards +y, rad
  double phase = 0.0;       ///< rad
};

class BumpyGround final : public Ground {
 public:
  BumpyGround(double base_height, std::vector<Sinusoid> components);

  /// `count` components with a_k = rms_height sqrt(2 / count) (so the field's RMS height is
  /// rms_height), wavelengths uniform in [wavelength, 2 wavelength], directions and phases
  /// uniform; the same seed gives the same field.
  static BumpyGround random(double base_height, double rms_height, double wavelength, std::uint64_t seed,
                            int count = 16);

  double height(double x, double y) const override;
  Vec3 normal(double x, double y) const override;
  /// Upper bound of |height - base|: the sum of the amplitudes.
  double max_deviation() const;
  const std::vector<Sinusoid>& components() const { return components_; }

 private:
  struct Wave {
    double amplitude, kx, ky, phase;
  };
  double base_;
  std::vector<Sinusoid> components_;
  std::vector<Wave> waves_;
};

}  // namespace trackcosim::vehicle
