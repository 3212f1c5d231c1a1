#pragma once
// The load schedules of a config's `bodies` (docs/terrain-config.md, "bodies"): before each step
// every rank sets, on the bodies it holds, the force and torque of the piece that acts in that
// step. The schedule is config data that every rank has, keyed by gid, so a body that changes
// rank keeps its load with no message (DistributedTerrain::set_applied_load). Its clock is the
// run's: the terrain's time in a standalone run, the coupling's (the vehicle's) in a
// co-simulation, so a tool pushed from t = 2 s is pushed 2 s into the coupling whatever the
// terrain did before it (a settle phase).

#include <vector>

#include "terrain_node/config/terrain_config.h"
#include "terrain_node/distributed/distributed_terrain.h"

namespace trackcosim::terrain {

class BodyLoadSchedule {
 public:
  /// The loaded `bodies` of the config, by their gids (config.body_gids).
  explicit BodyLoadSchedule(const TerrainConfig& config);

  bool empty() const { return bodies_.empty(); }
  /// Sets the loads of the step from `step_start` to `step_start + step_size` on the schedule's
  /// clock: the piece whose `from` is at most the step's middle, so a piece starts with the step
  /// nearest to its time whatever the rounding of the clock. No messages.
  void apply(DistributedTerrain& terrain, double step_start, real step_size) const;

 private:
  struct Loaded {
    gpu::GlobalId gid;
    const SceneBody* body;
  };
  std::vector<Loaded> bodies_;
};

}  // namespace trackcosim::terrain
