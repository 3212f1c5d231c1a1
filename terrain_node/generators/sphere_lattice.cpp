#include "terrain_node/generators/sphere_lattice.h"

#include <cmath>
#include <limits>
#include <random>

namespace trackcosim::terrain {
namespace {

/// The top 53 bits of one draw as a double in [0, 1): exact, and the same everywhere.
double unit_interval(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

double uniform(std::mt19937_64& rng, double lo, double hi) { return lo + (hi - lo) * unit_interval(rng); }

constexpr std::uint64_t kDrawsPerSphere = 4;

/// Can a centre within +-jitter of `centre` along one axis fall in [lo, hi)?
bool may_reach(double centre, double jitter, double lo, double hi) { return centre + jitter >= lo && centre - jitter < hi; }

}  // namespace

domain::Aabb whole_space() {
  const real inf = std::numeric_limits<real>::infinity();
  return {{-inf, -inf, -inf}, {inf, inf, inf}};
}

std::array<std::uint64_t, 3> lattice_cells_per_axis(const SphereLattice& lattice) {
  const real extent[3] = {lattice.max.x - lattice.min.x, lattice.max.y - lattice.min.y,
                          lattice.max.z - lattice.min.z};
  std::array<std::uint64_t, 3> cells{};
  for (int a = 0; a < 3; ++a) {
    // The tolerance keeps a box of exactly 50 spacings at 50 cells when 1.0 / 0.02 rounds low.
    const double fit = std::floor(static_cast<double>(extent[a]) / lattice.spacing + 1e-9);
    cells[a] = fit > 0 ? static_cast<std::uint64_t>(fit) : 0;
  }
  return cells;
}

std::uint64_t generate_lattice(const SphereLattice& lattice, gpu::SphereShapes& out, const domain::Aabb& region) {
  const std::array<std::uint64_t, 3> cells = lattice_cells_per_axis(lattice);
  const double s = lattice.spacing;
  // Centre of cell 0 on each axis, with the lattice centred in the box.
  const double first[3] = {lattice.min.x + 0.5 * (lattice.max.x - lattice.min.x - double(cells[0]) * s) + 0.5 * s,
                           lattice.min.y + 0.5 * (lattice.max.y - lattice.min.y - double(cells[1]) * s) + 0.5 * s,
                           lattice.min.z + 0.5 * (lattice.max.z - lattice.min.z - double(cells[2]) * s) + 0.5 * s};
  const double jitter = lattice.jitter * s;
  const double jitter_z = lattice.jitter_z ? 1.0 : 0.0;

  std::mt19937_64 rng(lattice.seed);
  std::uint64_t built = 0;
  gpu::GlobalId gid = lattice.first_id;
  for (std::uint64_t k = 0; k < cells[2]; ++k) {
    const double zc = first[2] + double(k) * s;
    if (!may_reach(zc, jitter * jitter_z, region.lo.z, region.hi.z)) {
      rng.discard(kDrawsPerSphere * cells[0] * cells[1]);
      gid += cells[0] * cells[1];
      continue;
    }
    for (std::uint64_t j = 0; j < cells[1]; ++j) {
      if (!may_reach(first[1] + double(j) * s, jitter, region.lo.y, region.hi.y)) {
        rng.discard(kDrawsPerSphere * cells[0]);
        gid += cells[0];
        continue;
      }
      for (std::uint64_t i = 0; i < cells[0]; ++i, ++gid) {
        const double x = first[0] + double(i) * s + uniform(rng, -jitter, jitter);
        const double y = first[1] + double(j) * s + uniform(rng, -jitter, jitter);
        const double z = zc + jitter_z * uniform(rng, -jitter, jitter);
        const double r = lattice.radius.sample(unit_interval(rng));
        const Vec3 p{real(x), real(y), real(z)};
        if (!region.contains(p)) continue;
        out.add(p, real(r), gid, 0);
        ++built;
      }
    }
  }
  return built;
}

}  // namespace trackcosim::terrain
