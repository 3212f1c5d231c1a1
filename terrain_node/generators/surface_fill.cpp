#include "terrain_node/generators/surface_fill.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "terrain_node/generators/counter_random.h"

namespace trackcosim::terrain {
namespace {

/// Key words of the draws: one stream of columns per stratum.
constexpr std::uint64_t kJitterX = 0, kJitterY = 1, kRadius = 2;

std::uint64_t whole_cells(real extent, real pitch) {
  const double fit = std::floor(double(extent) / double(pitch) + 1e-9);
  return fit > 0 ? std::uint64_t(fit) : 0;
}

/// Index range [lo, hi) of columns whose jittered centre can fall in [a, b).
std::pair<std::uint64_t, std::uint64_t> columns_reaching(real a, real b, real first, real pitch, real jitter,
                                                         std::uint64_t n) {
  const double lo = std::ceil((double(a) - jitter - first) / pitch - 1e-9);
  const double hi = std::floor((double(b) + jitter - first) / pitch + 1e-9) + 1;
  const double clamp_lo = std::clamp(lo, 0.0, double(n)), clamp_hi = std::clamp(hi, 0.0, double(n));
  return {std::uint64_t(clamp_lo), std::uint64_t(std::max(clamp_lo, clamp_hi))};
}

}  // namespace

SurfaceFillPlan::SurfaceFillPlan(const SurfaceFill& fill, const ObstacleSet& obstacles)
    : fill_(fill), obstacles_(obstacles) {
  real base = fill.bottom;
  std::uint64_t columns = 0;
  for (const Stratum& s : fill.strata) {
    Grid g;
    g.pitch = 2 * s.radius.largest() * (1 + fill.gap);
    g.jitter = s.radius.largest() * fill.gap;
    g.base = base;
    g.top = s.thickness > 0 ? base + s.thickness : std::numeric_limits<real>::infinity();
    const real w = fill.area.x_max - fill.area.x_min, h = fill.area.y_max - fill.area.y_min;
    g.nx = whole_cells(w, g.pitch);
    g.ny = whole_cells(h, g.pitch);
    // Centred in the area, as the lattice is.
    g.x0 = fill.area.x_min + (w - real(g.nx) * g.pitch) / 2 + g.pitch / 2;
    g.y0 = fill.area.y_min + (h - real(g.ny) * g.pitch) / 2 + g.pitch / 2;
    g.first_column = columns;
    columns += g.nx * g.ny;
    grids_.push_back(g);
    base = g.top;
  }
  prefix_.assign(columns + 1, 0);
  std::vector<std::array<real, 4>> scratch;
  for (std::size_t s = 0; s < grids_.size(); ++s)
    for (std::uint64_t j = 0; j < grids_[s].ny; ++j)
      for (std::uint64_t i = 0; i < grids_[s].nx; ++i) {
        const std::uint64_t c = grids_[s].first_column + j * grids_[s].nx + i;
        scratch.clear();
        prefix_[c + 1] = prefix_[c] + column(s, i, j, scratch);
      }
}

std::size_t SurfaceFillPlan::column(std::size_t stratum, std::uint64_t i, std::uint64_t j,
                                    std::vector<std::array<real, 4>>& out) const {
  const Grid& g = grids_[stratum];
  const SizeDistribution& radius = fill_.strata[stratum].radius;
  const std::uint64_t key = g.first_column + j * g.nx + i;
  const std::uint64_t seed = fill_.seed ^ (0x5f11ULL << 32) ^ stratum;
  const real x = g.x0 + real(i) * g.pitch + g.jitter * real(2 * counter_unit(seed, key, kJitterX) - 1);
  const real y = g.y0 + real(j) * g.pitch + g.jitter * real(2 * counter_unit(seed, key, kJitterY) - 1);
  const std::optional<real> surface = fill_.surface->height(x, y);
  if (!surface) return 0;
  const real r_max = radius.largest();
  const real by_surface = *surface - r_max, by_stratum = g.top - g.pitch / 2;
  const double layers = std::floor((double(std::min(by_surface, by_stratum)) - g.base) / g.pitch - 0.5 + 1e-12) + 1;
  if (layers <= 0) return 0;
  const auto count = std::uint64_t(layers);
  const std::size_t before = out.size();
  for (std::uint64_t k = 0; k < count; ++k) {
    const real r = radius.sample(counter_unit(seed, key, kRadius, k));
    real z = g.base + g.pitch * (real(k) + real(0.5));
    // The surface lies inside this stratum: the top sphere touches it (never leaving the stratum).
    if (k + 1 == count && by_surface < by_stratum) z = std::max(z, std::min(*surface, g.top) - r);
    if (!obstacles_.empty() && obstacles_.overlaps({x, y, z}, r)) continue;
    out.push_back({x, y, z, r});
  }
  return out.size() - before;
}

std::uint64_t SurfaceFillPlan::generate(gpu::GlobalId first, const domain::Aabb& region, gpu::SphereShapes& out) const {
  std::uint64_t built = 0;
  std::vector<std::array<real, 4>> spheres;
  for (std::size_t s = 0; s < grids_.size(); ++s) {
    const Grid& g = grids_[s];
    if (region.hi.z < g.base || region.lo.z > g.top) continue;
    const auto [i0, i1] = columns_reaching(region.lo.x, region.hi.x, g.x0, g.pitch, g.jitter, g.nx);
    const auto [j0, j1] = columns_reaching(region.lo.y, region.hi.y, g.y0, g.pitch, g.jitter, g.ny);
    for (std::uint64_t j = j0; j < j1; ++j)
      for (std::uint64_t i = i0; i < i1; ++i) {
        const std::uint64_t c = g.first_column + j * g.nx + i;
        spheres.clear();
        column(s, i, j, spheres);
        for (std::size_t k = 0; k < spheres.size(); ++k) {
          const Vec3 p{spheres[k][0], spheres[k][1], spheres[k][2]};
          if (!region.contains(p)) continue;
          out.add(p, spheres[k][3], first + prefix_[c] + k, 0);
          ++built;
        }
      }
  }
  return built;
}

}  // namespace trackcosim::terrain
