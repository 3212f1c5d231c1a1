#pragma once
// The co-simulation side of the moving patch (docs/moving-patch.md): once per coupling step,
// before the sub-steps, the box is put around the shoes the vehicle just sent (every rank has
// the same broadcast states, so every rank computes the same box) and the terrain sorts its
// particles by it. The cuts follow the active particles: they move whenever the box has
// travelled `rebalance_shift` since they last moved. One patch.csv row per coupling step.

#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <vector>

#include "terrain_node/config/terrain_config.h"
#include "terrain_node/distributed/distributed_terrain.h"

namespace trackcosim::terrain {

/// Means over the coupling steps of a run (patch.csv's columns, summed up).
struct PatchSummary {
  std::uint64_t updates = 0;
  std::uint64_t particles = 0;  ///< active + fixed + stored (constant)
  double active_mean = 0, fixed_mean = 0, stored_mean = 0;
  std::uint64_t active_max = 0, reactivated = 0, cut_moves = 0;
  double seconds = 0;  ///< spent sorting and handing over
};

class MovingPatch {
 public:
  /// `largest_radius`: of the terrain's spheres; the default boundary is one diameter.
  MovingPatch(const MovingPatchSettings& settings, real largest_radius);

  /// The box around these shoe reference points.
  PatchBox box_around(const std::vector<Vec3>& shoes) const;
  /// Collective: applies the box around `shoes` to the terrain; writes a row to `csv` if open.
  PatchCounts follow(DistributedTerrain& terrain, const std::vector<Vec3>& shoes, std::uint64_t step, double t,
                     std::ofstream& csv);
  const PatchSummary& summary() const { return summary_; }
  /// patch.csv's header line.
  static const char* csv_header();

 private:
  MovingPatchSettings settings_;
  real shift_ = 0;  ///< box travel between cut moves
  real cut_x_ = std::numeric_limits<real>::quiet_NaN();  ///< box rear when the cuts last moved
  PatchSummary summary_;
};

}  // namespace trackcosim::terrain
