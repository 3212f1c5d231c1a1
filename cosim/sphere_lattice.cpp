#include "cosim/sphere_lattice.h"

#include <cmath>
#include <random>

namespace trackcosim::cosim {
namespace {

/// The top 53 bits of one draw as a double in [0, 1): exact, and the same everywhere.
double unit_interval(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

double uniform(std::mt19937_64& rng, double lo, double hi) { return lo + (hi - lo) * unit_interval(rng); }

}  // namespace

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

void generate_lattice(const SphereLattice& lattice, gpu::SphereShapes& out) {
  const std::array<std::uint64_t, 3> cells = lattice_cells_per_axis(lattice);
  const double s = lattice.spacing;
  // Centre of cell 0 on each axis, with the lattice centred in the box.
  const double first[3] = {lattice.min.x + 0.5 * (lattice.max.x - lattice.min.x - double(cells[0]) * s) + 0.5 * s,
                           lattice.min.y + 0.5 * (lattice.max.y - lattice.min.y - double(cells[1]) * s) + 0.5 * s,
                           lattice.min.z + 0.5 * (lattice.max.z - lattice.min.z - double(cells[2]) * s) + 0.5 * s};
  const double jitter = lattice.jitter * s;
  const double jitter_z = lattice.jitter_z ? 1.0 : 0.0;

  std::mt19937_64 rng(lattice.seed);
  out.reserve(out.size() + cells[0] * cells[1] * cells[2]);
  gpu::GlobalId gid = lattice.first_id;
  for (std::uint64_t k = 0; k < cells[2]; ++k)
    for (std::uint64_t j = 0; j < cells[1]; ++j)
      for (std::uint64_t i = 0; i < cells[0]; ++i) {
        const double x = first[0] + double(i) * s + uniform(rng, -jitter, jitter);
        const double y = first[1] + double(j) * s + uniform(rng, -jitter, jitter);
        const double z = first[2] + double(k) * s + jitter_z * uniform(rng, -jitter, jitter);
        const double r = uniform(rng, lattice.radius_min, lattice.radius_max);
        out.add(Vec3{real(x), real(y), real(z)}, real(r), gid++, 0);
      }
}

}  // namespace trackcosim::cosim
