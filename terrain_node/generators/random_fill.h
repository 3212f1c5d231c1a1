#pragma once
// Random filling with a guaranteed minimum separation (a deterministic parallel Poisson-disk
// sampling), for beds that are later settled (Heyn 2009, sec. 6.1.1).
//
// The centres' box (the fill box shrunk by the largest radius) is tiled into cells of edge
// >= d = 2 r_max + gap, so two spheres that could be too close lie in the same or neighbouring
// cells. Each cell gets a quota: the target count spread over the cells in proportion to their
// free volume (all equal without obstacles or a surface), with exact integer rounding, so the total is the
// target and the spheres before a cell - its gid offset - are known without generating anything.
// Cells are coloured by the parity of their indices (8 colours). A cell draws its spheres' radii
// (counter-based draws of (seed, cell, sphere): the distribution exactly, no bias towards small
// spheres), largest first, and throws darts (positions from draws of (seed, cell, attempt)) for
// each in turn, keeping a dart whose surface stays >= gap from every sphere already kept in its
// own cell and in its neighbours of lower colour (neighbours of higher colour test against it
// later). Same-coloured
// cells never touch, so a cell's spheres depend only on its lower-coloured neighbours, which
// depend on theirs: at most 7 cells away. A rank computes the cells of its region and, through
// that recursion, the few halo cells they depend on, and gets exactly what one rank would.
//
// Cells hold about 64 spheres: smaller cells lose too much room to their neighbours' spheres.
// A quota that 200 darts per sphere cannot meet stops with an error: the packing is too dense
// for this filling (about 0.3 without gap; the loader refuses more).

#include <cstdint>
#include <memory>
#include <vector>

#include "domain/aabb.h"
#include "gpu/collision/shape_scene.h"
#include "terrain_node/generators/elevation_surface.h"
#include "terrain_node/generators/obstacles.h"
#include "terrain_node/generators/size_distribution.h"

namespace trackcosim::terrain {

struct RandomFill {
  Vec3 min{0, 0, 0}, max{0, 0, 0};  ///< every sphere lies inside this box
  SizeDistribution radius;
  real gap = 0;                     ///< m, the least distance between two spheres' surfaces
  std::uint64_t count = 0;          ///< the number of spheres
  std::uint64_t seed = 0;
  /// When set, every sphere also lies below this surface (z + r <= S(x, y)).
  std::shared_ptr<const ElevationSurface> surface;
};

class RandomFillPlan {
 public:
  RandomFillPlan(const RandomFill& fill, const ObstacleSet& obstacles);
  std::uint64_t count() const { return fill_.count; }
  /// Appends the spheres whose centre lies in `region`, gids from `first`, in gid order; returns
  /// how many it built. Throws ConfigError when a cell cannot meet its quota.
  std::uint64_t generate(gpu::GlobalId first, const domain::Aabb& region, gpu::SphereShapes& out) const;
  /// Spheres in cells before `cell` (x fastest, then y, then z).
  std::uint64_t before(std::uint64_t cell) const;
  std::uint64_t cells() const { return n_[0] * n_[1] * n_[2]; }

 private:
  struct Cells;
  /// Below the surface (if any) and clear of the obstacles.
  bool fits(Vec3 p, real r) const;
  RandomFill fill_;
  ObstacleSet obstacles_;
  Vec3 lo_{0, 0, 0};          ///< corner of the centres' box
  real edge_[3] = {0, 0, 0};  ///< cell edges
  std::uint64_t n_[3] = {0, 0, 0};
  /// Free-volume weights' running sum per cell (only with obstacles near the box or a surface), else empty.
  std::vector<std::uint64_t> weight_prefix_;
};

/// The largest count a box can take at a packing fraction (sphere volume / box volume).
std::uint64_t count_for_packing(Vec3 min, Vec3 max, const SizeDistribution& radius, real packing);

}  // namespace trackcosim::terrain
