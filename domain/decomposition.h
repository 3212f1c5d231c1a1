#pragma once
// Subdomain boxes of a px x py x pz grid (a slab split is a grid with one axis cut). Each axis
// has interior cuts; the outer faces are at -inf / +inf, so every point of space has exactly one
// owner and a particle that flies out of the initial bed stays owned. Boxes are half-open
// [lo, hi), as Aabb::contains: a point on a cut belongs to the upper box.

#include <vector>

#include "domain/aabb.h"
#include "domain/grid_layout.h"

namespace trackcosim::domain {

class Decomposition {
 public:
  Decomposition() = default;  ///< one rank owns all space
  /// cuts_x holds grid.px - 1 increasing values, likewise y and z; std::invalid_argument otherwise.
  Decomposition(GridShape grid, std::vector<real> cuts_x, std::vector<real> cuts_y, std::vector<real> cuts_z);
  static Decomposition uniform(GridShape grid, const Aabb& world);

  const GridShape& grid() const { return grid_; }
  int rank_count() const { return grid_.count(); }
  const std::vector<real>& cuts(int axis) const { return cuts_[axis]; }

  int owner_of(Vec3 p) const;
  Aabb box(int rank) const;
  /// Ranks other than `rank` whose box lies within `width` of box(rank), increasing.
  std::vector<int> neighbours(int rank, real width) const;
  /// Distance from p to box(rank), 0 inside.
  real distance_to_box(Vec3 p, int rank) const;

 private:
  GridShape grid_;
  std::vector<real> cuts_[3];
};

/// Distance from a point to a box (0 inside; infinite faces are fine).
real distance_to(const Aabb& box, Vec3 p);

}  // namespace trackcosim::domain
