#pragma once
// The moving patch's box and the rule that sorts particles by it (Heyn thesis 6.2.1, "moving
// bounding-box terrain"; docs/moving-patch.md). Pure geometry, the same on every rank.
//
//          stored            fixed (boundary layer)            stored
//                 +--------------------------------------+
//                 |  +--------------------------------+  |
//                 |  |  active (Dynamic): centre in   |  |   y
//                 |  |  [x_lo, x_hi] x [y_lo, y_hi]   |  |   ^
//                 |  +--------------------------------+  |   |
//                 +--------------------------------------+   +--> x (forward)
//                    <- boundary ->
//
// The thesis keeps bodies "completely within the box" active, fixes those "intersecting" it and
// stores those "completely outside". With a box shrunk by one radius and a layer of one diameter
// this is the same rule; here the rule is on centres (a particle has one class whatever its
// shape) and the layer's thickness is a setting. The box spans z entirely: the bed's depth is
// simulated under the vehicle. A box may have a second band in y, [y2_lo, y2_hi] over the same
// x range (one per track, MovingPatchSettings::track_width): a particle takes the role of the
// band it is nearer to, so the two active boxes each get their own fixed ring.

#include <algorithm>
#include <cstdint>
#include <limits>

#include "math/vec3.h"

namespace trackcosim::terrain {

enum class PatchRole : std::uint8_t { Active, Fixed, Stored };

struct PatchBox {
  real x_lo = -std::numeric_limits<real>::infinity(), x_hi = std::numeric_limits<real>::infinity();
  real y_lo = -std::numeric_limits<real>::infinity(), y_hi = std::numeric_limits<real>::infinity();
  /// The second band in y; none while y2_lo > y2_hi (the default).
  real y2_lo = std::numeric_limits<real>::infinity(), y2_hi = -std::numeric_limits<real>::infinity();
  real boundary = 0;  ///< thickness of the fixed layer outside the box [m]

  bool has_second_band() const { return y2_lo <= y2_hi; }

  /// Active inside the box; Fixed when the centre is outside but within `boundary` of it along
  /// x and along y (a rectangular ring, corners included, so the active ones are walled in);
  /// Stored beyond. With a second band, the nearer of the two boxes decides.
  PatchRole role_of(Vec3 p) const {
    const real dx = std::max({x_lo - p.x, p.x - x_hi, real(0)});
    real d = std::max(dx, outside(p.y, y_lo, y_hi));
    if (has_second_band()) d = std::min(d, std::max(dx, outside(p.y, y2_lo, y2_hi)));
    return d == 0 ? PatchRole::Active : d <= boundary ? PatchRole::Fixed : PatchRole::Stored;
  }

 private:
  /// How far v lies outside [lo, hi] (0 inside).
  static real outside(real v, real lo, real hi) { return std::max({lo - v, v - hi, real(0)}); }
};

/// Particles of the terrain in each class, over all ranks, after an update.
struct PatchCounts {
  std::uint64_t active = 0;       ///< simulated (Dynamic)
  std::uint64_t fixed = 0;        ///< in the boundary layer (Fixed, held by every rank)
  std::uint64_t stored = 0;       ///< out of the solver, in the ranks' stores
  std::uint64_t reactivated = 0;  ///< taken out of a store (into the fixed layer or the solver) by this update
};

}  // namespace trackcosim::terrain
