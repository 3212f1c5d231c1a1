#pragma once
// A granular bed without a giant file: spheres on a regular lattice filling a box, with random
// radii and jittered centres. The same description gives the same spheres, bit for bit, on every
// machine and standard library: the random numbers come from std::mt19937_64 (fully specified by
// the standard) mapped to [0, 1) by our own arithmetic, never by std::uniform_real_distribution,
// whose algorithm differs between libstdc++ and libc++.
//
// The stream is sequential over the cells (kept so that existing beds stay bit-identical), so a
// rank that builds only its region still walks the draws of the cells before it; it skips whole
// rows and layers with discard() and builds only the spheres whose centre lies in the region.

#include <array>
#include <cstdint>

#include "domain/aabb.h"
#include "gpu/collision/shape_scene.h"
#include "terrain_node/generators/size_distribution.h"

namespace trackcosim::terrain {

struct SphereLattice {
  gpu::GlobalId first_id = 0;  ///< gids first_id, first_id + 1, ... in lattice order
  Vec3 min{0, 0, 0}, max{0, 0, 0};
  real spacing = 0;  ///< lattice cell edge [m]
  SizeDistribution radius;
  real jitter = 0;  ///< centre offset bound per axis, as a fraction of spacing
  /// false keeps every sphere of one z-layer at the layer's height (the layered beds of the
  /// co-simulation paper); the z draw is still made, so the stream stays the same.
  bool jitter_z = true;
  std::uint64_t seed = 0;
};

/// Whole cells of edge `spacing` that fit along x, y, z. The lattice is centred in the box, so
/// the spare length below one spacing is split evenly between both sides.
std::array<std::uint64_t, 3> lattice_cells_per_axis(const SphereLattice& lattice);

/// All of space, for generate_lattice's region.
domain::Aabb whole_space();

/// Appends one sphere per cell (x fastest, then y, then z) whose centre lies in `region`
/// (half-open, as Aabb::contains), each a body of its own with shape index 0. Per sphere, in this
/// order: jitter x, y, z uniform in [-jitter, +jitter) * spacing, then the radius from one draw.
/// Returns the number of spheres built.
std::uint64_t generate_lattice(const SphereLattice& lattice, gpu::SphereShapes& out,
                               const domain::Aabb& region = whole_space());

}  // namespace trackcosim::terrain
