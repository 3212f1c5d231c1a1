#include "domain/decomposition.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "domain/balanced_cuts.h"

namespace trackcosim::domain {
namespace {

constexpr real kInfinity = std::numeric_limits<real>::infinity();

real component(Vec3 v, int a) { return a == 0 ? v.x : a == 1 ? v.y : v.z; }

/// Index of the slab of `cuts` holding x: the number of cuts <= x (half-open, upper wins).
int slab_of(const std::vector<real>& cuts, real x) {
  return static_cast<int>(std::upper_bound(cuts.begin(), cuts.end(), x) - cuts.begin());
}

/// Gap between the intervals [alo, ahi) and [blo, bhi) along one axis, 0 when they overlap or touch.
real gap(real alo, real ahi, real blo, real bhi) { return std::max({real(0), blo - ahi, alo - bhi}); }

}  // namespace

Decomposition::Decomposition(GridShape grid, std::vector<real> cuts_x, std::vector<real> cuts_y,
                             std::vector<real> cuts_z)
    : grid_(grid), cuts_{std::move(cuts_x), std::move(cuts_y), std::move(cuts_z)} {
  const int parts[3] = {grid.px, grid.py, grid.pz};
  for (int a = 0; a < 3; ++a) {
    if (parts[a] < 1) throw std::invalid_argument("grid has " + std::to_string(parts[a]) + " parts along an axis");
    if (static_cast<int>(cuts_[a].size()) != parts[a] - 1)
      throw std::invalid_argument(std::string("axis ") + "xyz"[a] + ": " + std::to_string(cuts_[a].size()) +
                                  " cuts for " + std::to_string(parts[a]) + " parts");
    for (std::size_t k = 0; k < cuts_[a].size(); ++k)
      if (!std::isfinite(cuts_[a][k]) || (k > 0 && !(cuts_[a][k] > cuts_[a][k - 1])))
        throw std::invalid_argument(std::string("axis ") + "xyz"[a] + ": cuts must be finite and increasing");
  }
}

Decomposition Decomposition::uniform(GridShape grid, const Aabb& world) {
  return Decomposition(grid, uniform_cuts(world.lo.x, world.hi.x, grid.px), uniform_cuts(world.lo.y, world.hi.y, grid.py),
                       uniform_cuts(world.lo.z, world.hi.z, grid.pz));
}

int Decomposition::owner_of(Vec3 p) const {
  return rank_of(grid_, slab_of(cuts_[0], p.x), slab_of(cuts_[1], p.y), slab_of(cuts_[2], p.z));
}

Aabb Decomposition::box(int rank) const {
  const int index[3] = {rank % grid_.px, (rank / grid_.px) % grid_.py, rank / (grid_.px * grid_.py)};
  real lo[3], hi[3];
  for (int a = 0; a < 3; ++a) {
    const std::vector<real>& c = cuts_[a];
    const auto i = static_cast<std::size_t>(index[a]);
    lo[a] = i == 0 ? -kInfinity : c[i - 1];
    hi[a] = i == c.size() ? kInfinity : c[i];
  }
  return {{lo[0], lo[1], lo[2]}, {hi[0], hi[1], hi[2]}};
}

std::vector<int> Decomposition::neighbours(int rank, real width) const {
  const Aabb mine = box(rank);
  std::vector<int> out;
  for (int r = 0; r < rank_count(); ++r) {
    if (r == rank) continue;
    const Aabb other = box(r);
    real d2 = 0;
    for (int a = 0; a < 3; ++a) {
      const real g = gap(component(mine.lo, a), component(mine.hi, a), component(other.lo, a), component(other.hi, a));
      d2 += g * g;
    }
    if (std::sqrt(d2) <= width) out.push_back(r);
  }
  return out;
}

real distance_to(const Aabb& box, Vec3 p) {
  real d2 = 0;
  for (int a = 0; a < 3; ++a) {
    const real x = component(p, a);
    const real g = std::max({real(0), component(box.lo, a) - x, x - component(box.hi, a)});
    d2 += g * g;
  }
  return std::sqrt(d2);
}

real Decomposition::distance_to_box(Vec3 p, int rank) const { return distance_to(box(rank), p); }

}  // namespace trackcosim::domain
