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
// simulated under the vehicle.

#include <algorithm>
#include <cstdint>
#include <limits>

#include "gpu/math/vec3.h"

namespace trackcosim::terrain {

enum class PatchRole : std::uint8_t { Active, Fixed, Stored };

struct PatchBox {
  real x_lo = -std::numeric_limits<real>::infinity(), x_hi = std::numeric_limits<real>::infinity();
  real y_lo = -std::numeric_limits<real>::infinity(), y_hi = std::numeric_limits<real>::infinity();
  real boundary = 0;  ///< thickness of the fixed layer outside the box [m]

  /// Active inside the box; Fixed when the centre is outside but within `boundary` of it along
  /// x and along y (a rectangular ring, corners included, so the active ones are walled in);
  /// Stored beyond.
  PatchRole role_of(Vec3 p) const {
    const real dx = std::max({x_lo - p.x, p.x - x_hi, real(0)});
    const real dy = std::max({y_lo - p.y, p.y - y_hi, real(0)});
    const real d = std::max(dx, dy);
    return d == 0 ? PatchRole::Active : d <= boundary ? PatchRole::Fixed : PatchRole::Stored;
  }
};

/// Particles of the terrain in each class, over all ranks, after an update.
struct PatchCounts {
  std::uint64_t active = 0;       ///< simulated (Dynamic)
  std::uint64_t fixed = 0;        ///< in the boundary layer (Fixed, held by every rank)
  std::uint64_t stored = 0;       ///< out of the solver, in the ranks' stores
  std::uint64_t reactivated = 0;  ///< taken out of a store (into the fixed layer or the solver) by this update
};

}  // namespace trackcosim::terrain
