#pragma once
// Granular terrain under a surface (Heyn 2009, sec. 6.1.2-6.1.3): the surface z(x, y) is
// re-sampled at the particle spacing and the volume between a floor and the surface is filled
// with vertical stacks of spheres, in strata of different sizes from the floor up.
//
// Generator cells are columns. Stratum s has pitch p = 2 r_max (1 + gap); its columns sit on a
// p x p grid centred in the area, each jittered by at most r_max gap along x and y (so two
// columns never overlap) by counter-based draws of (seed, stratum, column). A column holds the
// layers z_k = base + p (k + 1/2) that fit below the stratum's top (z_k + p/2 <= top) and below
// the surface (z_k <= S - r_max, S the surface height at the column's jittered centre); where the
// surface lies inside the stratum, the column's top sphere is lifted to touch it (z = S - r),
// so the top surface follows S to within the re-sampling error, not the layer pitch. Spheres
// that would overlap an obstacle are left out.
//
// A column's count is a cheap pure function of its index, so every rank computes all counts
// (the plan), and a sphere's gid is first + (spheres in earlier columns) + its index in the
// column: the same on any rank count. A rank then builds only the columns that reach its region.

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "domain/aabb.h"
#include "gpu/collision/shape_scene.h"
#include "terrain_node/generators/elevation_surface.h"
#include "terrain_node/generators/obstacles.h"
#include "terrain_node/generators/size_distribution.h"

namespace trackcosim::terrain {

struct Stratum {
  real thickness = 0;  ///< m; 0 = up to the surface (only the last stratum)
  SizeDistribution radius;
};

struct SurfaceFill {
  Rectangle area;       ///< filled x-y rectangle
  real bottom = 0;      ///< floor height, where the first stratum starts
  std::vector<Stratum> strata;  ///< from the floor up
  real gap = 0.1;       ///< free room between neighbouring cells, a fraction of the stratum's largest diameter
  std::uint64_t seed = 0;
  std::shared_ptr<const ElevationSurface> surface;
};

/// Every column's count, computed once; generation then needs no other rank.
class SurfaceFillPlan {
 public:
  SurfaceFillPlan(const SurfaceFill& fill, const ObstacleSet& obstacles);
  std::uint64_t count() const { return prefix_.back(); }
  /// Appends the spheres whose centre lies in `region`, gids from `first`, in gid order; returns
  /// how many it built.
  std::uint64_t generate(gpu::GlobalId first, const domain::Aabb& region, gpu::SphereShapes& out) const;

  struct Grid {
    std::uint64_t nx = 0, ny = 0;
    real x0 = 0, y0 = 0;  ///< centre of column (0, 0)
    real pitch = 0, jitter = 0, base = 0, top = 0;
    std::uint64_t first_column = 0;  ///< index of column (0, 0) among all strata's columns
  };

 private:
  /// The column's spheres (x, y, z, r) in order, appended to `out`; returns how many.
  std::size_t column(std::size_t stratum, std::uint64_t i, std::uint64_t j, std::vector<std::array<real, 4>>& out) const;

  SurfaceFill fill_;
  ObstacleSet obstacles_;
  std::vector<Grid> grids_;
  std::vector<std::uint64_t> prefix_;  ///< spheres before each column, over all strata, plus the total
};

}  // namespace trackcosim::terrain
