#include "terrain_node/generators/random_fill.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <numbers>
#include <string>
#include <unordered_map>

#include "io/config_error.h"
#include "terrain_node/generators/counter_random.h"

namespace trackcosim::terrain {
namespace {

/// Samples per axis for a cell's free-volume weight (only where an obstacle is near).
constexpr std::uint64_t kWeightSamples = 8;
constexpr std::uint64_t kFullWeight = kWeightSamples * kWeightSamples * kWeightSamples;
constexpr std::uint64_t kDartsPerSphere = 200;
/// Spheres per cell: larger cells lose less room to the darts of neighbours filled before them.
constexpr double kSpheresPerCell = 64;

struct Sphere {
  real x, y, z, r;
};

}  // namespace

/// The cells computed so far in one generate() call, by index, and their spheres binned on a fine
/// grid of edge >= 2 r_max + gap, so a dart meets only the spheres of the 27 bins around it.
struct RandomFillPlan::Cells {
  struct Binned {
    Sphere sphere;
    std::uint64_t cell;
    std::uint64_t colour;
  };
  std::unordered_map<std::uint64_t, std::vector<Sphere>> done;
  std::unordered_map<std::uint64_t, std::vector<Binned>> bins;
};

std::uint64_t count_for_packing(Vec3 min, Vec3 max, const SizeDistribution& radius, real packing) {
  const double volume = double(max.x - min.x) * double(max.y - min.y) * double(max.z - min.z);
  const double sphere = 4.0 / 3.0 * std::numbers::pi * radius.mean_cubed_radius();
  return std::uint64_t(std::llround(packing * volume / sphere));
}

RandomFillPlan::RandomFillPlan(const RandomFill& fill, const ObstacleSet& obstacles) : fill_(fill), obstacles_(obstacles) {
  const real r = fill.radius.largest();
  lo_ = fill.min + Vec3{r, r, r};
  const Vec3 extent = fill.max - fill.min - Vec3{2 * r, 2 * r, 2 * r};
  const real d = 2 * r + fill.gap;
  // About 4 spheres per cell keeps the quotas' rounding fine-grained; never below d.
  const double volume = double(extent.x) * extent.y * extent.z;
  const double target = fill.count > 0 ? std::cbrt(kSpheresPerCell * volume / double(fill.count)) : double(d);
  const double want = std::max<double>(d, target);
  const real e[3] = {extent.x, extent.y, extent.z};
  for (int a = 0; a < 3; ++a) {
    n_[a] = std::max<std::uint64_t>(1, std::uint64_t(std::floor(e[a] / want)));
    edge_[a] = e[a] / real(n_[a]);
  }
  const domain::Aabb centres{lo_, lo_ + extent};
  if (!fill.surface && (obstacles_.empty() || !obstacles_.near(centres, r))) return;
  // Free volume per cell by sampling: a point is free when a sphere of the largest radius fits
  // (below the surface, clear of obstacles).
  weight_prefix_.assign(cells() + 1, 0);
  for (std::uint64_t c = 0; c < cells(); ++c) {
    const std::uint64_t i = c % n_[0], j = c / n_[0] % n_[1], k = c / (n_[0] * n_[1]);
    std::uint64_t free = 0;
    for (std::uint64_t s = 0; s < kFullWeight; ++s) {
      const real fx = (real(s % kWeightSamples) + real(0.5)) / kWeightSamples;
      const real fy = (real(s / kWeightSamples % kWeightSamples) + real(0.5)) / kWeightSamples;
      const real fz = (real(s / (kWeightSamples * kWeightSamples)) + real(0.5)) / kWeightSamples;
      const Vec3 p{lo_.x + (real(i) + fx) * edge_[0], lo_.y + (real(j) + fy) * edge_[1], lo_.z + (real(k) + fz) * edge_[2]};
      free += fits(p, r) ? 1 : 0;
    }
    weight_prefix_[c + 1] = weight_prefix_[c] + free;
  }
}

bool RandomFillPlan::fits(Vec3 p, real r) const {
  if (fill_.surface) {
    const std::optional<real> top = fill_.surface->height(p.x, p.y);
    if (!top || p.z + r > *top) return false;
  }
  return obstacles_.empty() || !obstacles_.overlaps(p, r);
}

std::uint64_t RandomFillPlan::before(std::uint64_t cell) const {
  // floor(count * W(cell) / W(all)): integer, so the quotas add up to count exactly. No overflow:
  // there are at most count / 4 cells (see the cell edge), so W <= 128 count and count <= 1e8.
  const std::uint64_t w = weight_prefix_.empty() ? cell : weight_prefix_[cell];
  const std::uint64_t total = weight_prefix_.empty() ? cells() : weight_prefix_.back();
  if (total == 0) return 0;
  return w * fill_.count / total;
}

std::uint64_t RandomFillPlan::generate(gpu::GlobalId first, const domain::Aabb& region, gpu::SphereShapes& out) const {
  Cells memo;
  const std::uint64_t nx = n_[0], ny = n_[1], nz = n_[2];
  auto colour = [](std::uint64_t i, std::uint64_t j, std::uint64_t k) { return (i & 1) | (j & 1) << 1 | (k & 1) << 2; };

  const real bin = 2 * fill_.radius.largest() + fill_.gap;
  auto bin_of = [&](real x, real y, real z, int dx, int dy, int dz) {
    const auto at = [&](real v, real base, int d) { return std::uint64_t(std::int64_t(std::floor((v - base) / bin)) + 1 + d); };
    return at(x, lo_.x, dx) | at(y, lo_.y, dy) << 21 | at(z, lo_.z, dz) << 42;
  };

  // Computes cell (i, j, k) after its lower-coloured neighbours (recursion depth <= 8).
  auto compute = [&](auto&& self, std::uint64_t i, std::uint64_t j, std::uint64_t k) -> const std::vector<Sphere>& {
    const std::uint64_t c = i + nx * (j + ny * k);
    if (const auto found = memo.done.find(c); found != memo.done.end()) return found->second;
    const std::uint64_t mine = colour(i, j, k);
    for (int dk = -1; dk <= 1; ++dk)
      for (int dj = -1; dj <= 1; ++dj)
        for (int di = -1; di <= 1; ++di) {
          const std::int64_t a = std::int64_t(i) + di, b = std::int64_t(j) + dj, e = std::int64_t(k) + dk;
          if (a < 0 || b < 0 || e < 0 || a >= std::int64_t(nx) || b >= std::int64_t(ny) || e >= std::int64_t(nz)) continue;
          if (colour(a, b, e) < mine) self(self, a, b, e);
        }
    const std::uint64_t quota = before(c + 1) - before(c);
    // Clear of the spheres kept in this cell and in lower-coloured cells; a higher-coloured
    // neighbour computed earlier (it lay earlier in the region) must not count: it comes later
    // in the colour order and tests against this cell instead.
    auto clear = [&](const Sphere& s) {
      for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            const auto found = memo.bins.find(bin_of(s.x, s.y, s.z, dx, dy, dz));
            if (found == memo.bins.end()) continue;
            for (const Cells::Binned& o : found->second) {
              if (o.cell != c && o.colour > mine) continue;
              const real ex = s.x - o.sphere.x, ey = s.y - o.sphere.y, ez = s.z - o.sphere.z;
              const real min = s.r + o.sphere.r + fill_.gap;
              if (ex * ex + ey * ey + ez * ez < min * min) return false;
            }
          }
      return true;
    };
    // The cell's radii are drawn first, one per sphere, so that the darts (which only choose
    // positions) do not favour small spheres; the largest go first, while there is most room.
    std::vector<real> radii(quota);
    for (std::uint64_t n = 0; n < quota; ++n) radii[n] = fill_.radius.sample(counter_unit(fill_.seed, c, n, 3));
    std::sort(radii.begin(), radii.end(), std::greater<>());
    std::vector<Sphere> kept;
    for (std::uint64_t dart = 0; kept.size() < quota && dart < kDartsPerSphere * quota; ++dart) {
      const Sphere s{lo_.x + (real(i) + real(counter_unit(fill_.seed, c, dart, 0))) * edge_[0],
                     lo_.y + (real(j) + real(counter_unit(fill_.seed, c, dart, 1))) * edge_[1],
                     lo_.z + (real(k) + real(counter_unit(fill_.seed, c, dart, 2))) * edge_[2], radii[kept.size()]};
      if (!clear(s) || !fits({s.x, s.y, s.z}, s.r)) continue;
      kept.push_back(s);
      memo.bins[bin_of(s.x, s.y, s.z, 0, 0, 0)].push_back({s, c, mine});
    }
    if (kept.size() < quota)
      throw io::ConfigError("cell (" + std::to_string(i) + ", " + std::to_string(j) + ", " + std::to_string(k) +
                        ") took only " + std::to_string(kept.size()) + " of its " + std::to_string(quota) +
                        " spheres after " + std::to_string(kDartsPerSphere * quota) +
                        " random tries: lower the packing fraction (or count) or the gap");
    return memo.done.emplace(c, std::move(kept)).first->second;
  };

  // Cells whose box meets the region, in gid order.
  auto range = [&](int a, real lo, real hi) {
    const real base = a == 0 ? lo_.x : a == 1 ? lo_.y : lo_.z;
    const double from = std::floor((double(lo) - base) / edge_[a]), to = std::floor((double(hi) - base) / edge_[a]) + 1;
    return std::array<std::uint64_t, 2>{std::uint64_t(std::clamp(from, 0.0, double(n_[a]))),
                                        std::uint64_t(std::clamp(to, 0.0, double(n_[a])))};
  };
  const auto rx = range(0, region.lo.x, region.hi.x), ry = range(1, region.lo.y, region.hi.y),
             rz = range(2, region.lo.z, region.hi.z);
  std::uint64_t built = 0;
  for (std::uint64_t k = rz[0]; k < rz[1]; ++k)
    for (std::uint64_t j = ry[0]; j < ry[1]; ++j)
      for (std::uint64_t i = rx[0]; i < rx[1]; ++i) {
        const std::uint64_t c = i + nx * (j + ny * k);
        const std::vector<Sphere>& spheres = compute(compute, i, j, k);
        for (std::size_t s = 0; s < spheres.size(); ++s) {
          const Vec3 p{spheres[s].x, spheres[s].y, spheres[s].z};
          if (!region.contains(p)) continue;
          out.add(p, spheres[s].r, first + before(c) + s, 0);
          ++built;
        }
      }
  return built;
}

}  // namespace trackcosim::terrain
