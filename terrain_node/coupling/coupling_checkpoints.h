#pragma once
// The terrain's checkpoints of a coupling (coupling_checkpoint.h holds their format): written by
// every rank, collectively, when the vehicle asks (a checkpoint frame) or at a stop with a vehicle
// that cannot checkpoint. A large bed's checkpoint may take minutes, but a peer lost inside the
// collective write must still end the job: it is watched, with an allowance beyond the watchdog's
// limit from the slowest sub-step so far (checkpoint_allowance.h), which this observer keeps.

#include <cstdint>
#include <filesystem>
#include <string>

#include "comm/watchdog.h"
#include "terrain_node/coupling/coupling_checkpoint.h"
#include "terrain_node/coupling/coupling_observer.h"

namespace trackcosim::terrain {

class CouplingCheckpoints : public CouplingObserver {
 public:
  /// Collective when `path` is not empty (it counts the bodies a checkpoint writes). `coupling`
  /// holds the coupling's step, shoes and first proxy; `record` is the run's config record;
  /// `outputs` are flushed before a checkpoint is announced, so that a resume finds every row.
  CouplingCheckpoints(const DistributedTerrain& terrain, std::filesystem::path path, std::string record,
                      CouplingMark coupling, comm::Watchdog* watchdog, CouplingObservers& outputs);

  /// Whether the welcome offers checkpoints (a path was given).
  bool enabled() const { return !path_.empty(); }
  /// Collective: the checkpoint of t_k, the start of coupling step `step` (the vehicle's time).
  void write(const DistributedTerrain& terrain, std::uint64_t step, double vehicle_time);
  const std::filesystem::path& path() const { return path_; }

  /// Keeps the slowest sub-step, the first of the coupling not counted (it pays for the start).
  void after_substep(const DistributedTerrain&, double step_seconds) override;

 private:
  std::filesystem::path path_;
  std::string record_;
  CouplingMark coupling_;
  comm::Watchdog* watchdog_;
  CouplingObservers& outputs_;
  std::uint64_t bodies_ = 0;  ///< the dynamic bodies a checkpoint writes
  double slowest_step_ = 0;
  bool first_step_seen_ = false;
};

}  // namespace trackcosim::terrain
