#include "terrain_node/coupling/bed_compaction.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "terrain_node/output/settle_statistics.h"

namespace trackcosim::terrain {
namespace {

constexpr double kPi = 3.14159265358979323846;

std::uint64_t steps_in(double duration, real step_size) {
  const auto n = static_cast<std::uint64_t>(std::llround(duration / static_cast<double>(step_size)));
  return n > 0 ? n : 1;
}

/// The sample box's packing fraction, or an error naming why the bed has none.
double packing_of(const DistributedTerrain& terrain, const TerrainConfig& config) {
  const SettleStatistics s = measure_settled_bed(terrain, config);
  if (!std::isfinite(s.packing_fraction))
    throw std::runtime_error("cosim.compaction: the bed's packing fraction cannot be measured: " + s.packing_note);
  return s.packing_fraction;
}

void report(const DistributedTerrain& terrain, const char* text) {
  if (!terrain.leader()) return;
  std::printf("%s", text);
  std::fflush(stdout);
}

}  // namespace

std::uint64_t tap_steps(const CompactionSettings& c, real step_size) { return steps_in(1.0 / c.tap_frequency, step_size); }

std::uint64_t relax_steps(const CompactionSettings& c, real step_size) { return steps_in(c.relax_time, step_size); }

Vec3 tap_gravity(Vec3 gravity, const CompactionSettings& c, std::uint64_t k, std::uint64_t steps) {
  const double phase = 2 * kPi * (static_cast<double>(k) + 0.5) / static_cast<double>(steps);
  return gravity * static_cast<real>(1 + c.tap_acceleration * std::sin(phase));
}

CompactionOutcome compact_bed(DistributedTerrain& terrain, const TerrainConfig& config, const CompactionSettings& c,
                              const std::function<void()>& after_step) {
  const Vec3 gravity = config.scene.step.gravity;
  const real h = terrain.step_size();
  const std::uint64_t per_tap = tap_steps(c, h), per_relax = relax_steps(c, h);
  CompactionOutcome out;
  out.packing_settled = out.packing = packing_of(terrain, config);
  char line[256];
  std::snprintf(line, sizeof line,
                "compact    packing %.4f settled, target %.4f: taps of %g g at %g Hz (%llu steps), %g s to relax "
                "(%llu steps), at most %llu\n",
                out.packing, static_cast<double>(c.packing), static_cast<double>(c.tap_acceleration),
                static_cast<double>(c.tap_frequency), static_cast<unsigned long long>(per_tap),
                static_cast<double>(c.relax_time), static_cast<unsigned long long>(per_relax),
                static_cast<unsigned long long>(c.max_taps));
  report(terrain, line);
  while (out.packing < c.packing) {
    if (out.taps == c.max_taps) {
      std::snprintf(line, sizeof line,
                    "cosim.compaction: the bed reached a packing of %.4f (settled %.4f) after %llu taps, short of the "
                    "target %.4f: raise max_taps or tap_acceleration, or ask for a looser bed",
                    out.packing, out.packing_settled, static_cast<unsigned long long>(out.taps),
                    static_cast<double>(c.packing));
      throw std::runtime_error(line);
    }
    for (std::uint64_t k = 0; k < per_tap; ++k) {
      terrain.set_gravity(tap_gravity(gravity, c, k, per_tap));
      terrain.step();
      after_step();
    }
    terrain.set_gravity(gravity);
    for (std::uint64_t k = 0; k < per_relax; ++k) {
      terrain.step();
      after_step();
    }
    out.steps += per_tap + per_relax;
    ++out.taps;
    const double before = out.packing;
    out.packing = packing_of(terrain, config);
    std::snprintf(line, sizeof line, "compact    tap %llu: packing %.4f (%+.4f)\n",
                  static_cast<unsigned long long>(out.taps), out.packing, out.packing - before);
    report(terrain, line);
  }
  return out;
}

}  // namespace trackcosim::terrain
