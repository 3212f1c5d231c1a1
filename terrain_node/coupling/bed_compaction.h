#pragma once
// A settled bed compacted to a given packing fraction before the vehicle comes (cosim.compaction,
// docs/ccp.md "A bed of a given density"). How dense a settled bed is depends on how it was made:
// on the robot's gravel each halving of the settling step packed it 2% denser and took a third off
// the sinkage, without converging. A terramechanics test states its soil's density instead, and
// prepares the bin to it; so does this: the container is tapped along gravity, one sine period of
// its acceleration a(t) = A |g| sin(2 pi f t) at a time (in the container's frame, a gravity
// g (1 + A sin(2 pi f t)); with A > 1 the bed lifts off in the second half period and lands
// denser), then the bed relaxes at plain gravity for relax_time, and the packing fraction of the
// settle statistics' sample box (settle_statistics.h) is measured. The taps stop at the first
// measurement at or above the target.

#include <cstdint>
#include <functional>

#include "terrain_node/config/terrain_config.h"
#include "terrain_node/distributed/distributed_terrain.h"

namespace trackcosim::terrain {

struct CompactionOutcome {
  std::uint64_t taps = 0;     ///< taps made (0: the bed was already as dense)
  std::uint64_t steps = 0;    ///< terrain steps made, taps and relaxation
  double packing_settled = 0; ///< the sample box's packing fraction before the first tap
  double packing = 0;         ///< after the last
};

/// The steps of one tap and of one relaxation at `step_size` (each at least one).
std::uint64_t tap_steps(const CompactionSettings& c, real step_size);
std::uint64_t relax_steps(const CompactionSettings& c, real step_size);

/// The gravity during step `k` (from 0) of a tap of `steps` steps: `gravity` scaled by
/// 1 + A sin(2 pi (k + 1/2) / steps), the acceleration at the step's middle.
Vec3 tap_gravity(Vec3 gravity, const CompactionSettings& c, std::uint64_t k, std::uint64_t steps);

/// Taps and relaxes the terrain at its current step size until the sample box's packing reaches
/// c.packing; restores the config's gravity after. Collective over the terrain's ranks (every rank measures
/// the same packing, so every rank takes the same decision). `after_step` runs after every step
/// (the caller's watchdog and keep-alive). The leader prints one line per tap. Throws
/// std::runtime_error, on every rank, when the bed has no sample box or is still short of the
/// target after c.max_taps taps, naming what it reached.
CompactionOutcome compact_bed(DistributedTerrain& terrain, const TerrainConfig& config, const CompactionSettings& c,
                              const std::function<void()>& after_step);

}  // namespace trackcosim::terrain
