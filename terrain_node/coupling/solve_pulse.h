#pragma once
// A co-simulating terrain rank's pulse inside its terrain steps (gpu/dynamics/solver_progress.h):
// after every solver iteration the rank beats its watchdog, and the leader sends the vehicle a
// working frame when it has sent nothing for the vehicle's keep-alive interval
// (TerrainCoupler::keep_alive, which checks the clock and usually sends nothing). So the
// vehicle's timeout and the watchdog's limit bound the silence of one solver iteration, not of
// a whole terrain step (docs/protocol.md, "Timeouts"). A rank blocked in a collective beats no
// more, so a hung peer still ends the job. Installed for its lifetime.

#include <cstdint>

#include "comm/watchdog.h"
#include "cosim/coupler.h"
#include "terrain_node/distributed/distributed_terrain.h"

namespace trackcosim::terrain {

class SolvePulse final : public gpu::SolverProgress {
 public:
  /// `doing` names the step in a hang's message ("a solver iteration of terrain step", a string
  /// literal); `watchdog` and `coupler` may be null (no watchdog; not the leader).
  SolvePulse(DistributedTerrain& terrain, comm::Watchdog* watchdog, cosim::TerrainCoupler* coupler, const char* doing)
      : terrain_(terrain), watchdog_(watchdog), coupler_(coupler), doing_(doing) {
    terrain_.set_solver_progress(this);
  }
  ~SolvePulse() override { terrain_.set_solver_progress(nullptr); }
  SolvePulse(const SolvePulse&) = delete;
  SolvePulse& operator=(const SolvePulse&) = delete;

  void iteration_done(std::uint32_t) override {
    if (watchdog_ != nullptr) watchdog_->beat(doing_, terrain_.step_count() + 1);
    if (coupler_ != nullptr) coupler_->keep_alive();
  }

 private:
  DistributedTerrain& terrain_;
  comm::Watchdog* watchdog_;
  cosim::TerrainCoupler* coupler_;
  const char* doing_;
};

}  // namespace trackcosim::terrain
