#pragma once
// The lattice keys shared by scene files (`lattice`) and terrain configs (`particles` of kind
// "lattice" and "layers"), and the radius forms every generator accepts: one reader, so all
// accept the same keys, forms and limits.

#include <cstdint>

#include <nlohmann/json.hpp>

#include "io/json_fields.h"
#include "terrain_node/generators/size_distribution.h"
#include "terrain_node/generators/sphere_lattice.h"

namespace trackcosim::terrain {

/// A lattice past this size is almost certainly a unit slip (spacing in mm, box in m) and would
/// exhaust memory before saying so.
inline constexpr std::uint64_t kMaxLatticeSpheres = 100'000'000;

/// Every radius of a terrain config (a listed sphere, a compound's member, each bound of a radius
/// form, also in a scene file's lattice): outside [kMinRadius, kMaxRadius] metres it is a unit
/// slip (millimetres for metres) or a number no run can use. Below, a grain's mass and kinetic
/// energy sink towards the resolution of the exact sums (comm/gather.h); above, a few
/// grains take the exact sums' whole budget (docs/terrain-config.md, "Ranges").
inline constexpr real kMinRadius = 1e-5;
inline constexpr real kMaxRadius = 10;
/// A radius in that range read from `field`; `per_radius` 2 reads a diameter (returned halved).
/// Throws ConfigError "<file>: <path>: must be in [1e-05, 10] m, got 20".
real read_radius(const io::JsonField& field, real per_radius = 1);

/// `r` (equal spheres), `[rmin, rmax]` (uniform) with 0 < rmin <= rmax, or an object
/// {"distribution": "uniform" | "normal" | "sieve", ...} (docs/terrain-config.md).
SizeDistribution read_size_distribution(const io::JsonField& field);
/// The form read_size_distribution reads back to the same distribution ([min, max] for uniform).
nlohmann::ordered_json size_distribution_json(const SizeDistribution& d);

/// Reads min, max, spacing, radius, jitter (default 0, at most 0.5) and seed (default 0) of a
/// lattice object whose keys the caller has checked; first_id is left to the caller. Throws
/// ConfigError when the box holds no whole cell or more than kMaxLatticeSpheres.
SphereLattice read_sphere_lattice(const io::JsonField& lattice);

/// Returns the sphere count. Throws ConfigError naming `box_field` when the lattice holds no whole
/// cell along an axis, or `size_field` when it holds more than kMaxLatticeSpheres spheres.
std::uint64_t checked_lattice_size(const SphereLattice& lattice, const io::JsonField& box_field,
                                   const io::JsonField& size_field);

}  // namespace trackcosim::terrain
