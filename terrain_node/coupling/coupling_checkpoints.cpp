// The terrain's checkpoints of a coupling (coupling_checkpoints.h).

#include "terrain_node/coupling/coupling_checkpoints.h"

#include <algorithm>
#include <utility>

#include "terrain_node/checkpoint/checkpoint_allowance.h"

namespace trackcosim::terrain {

CouplingCheckpoints::CouplingCheckpoints(const DistributedTerrain& terrain, std::filesystem::path path,
                                         std::string record, CouplingMark coupling, comm::Watchdog* watchdog,
                                         CouplingObservers& outputs)
    : path_(std::move(path)), record_(std::move(record)), coupling_(coupling), watchdog_(watchdog),
      outputs_(outputs), bodies_(path_.empty() ? 0 : terrain.dynamic_totals().bodies) {}

void CouplingCheckpoints::write(const DistributedTerrain& terrain, std::uint64_t step, double vehicle_time) {
  if (watchdog_ != nullptr)
    watchdog_->beat("terrain step", terrain.step_count(), checkpoint_allowance(slowest_step_, 0, bodies_));
  CouplingMark mark = coupling_;
  mark.step = step;
  mark.vehicle_time = vehicle_time;
  write_coupling_checkpoint(terrain, mark, path_, record_);
  // A resume keeps the rows before the checkpoint's step from the files on disk: every row
  // written so far must be there before the vehicle hears of the checkpoint (the streams
  // otherwise flush once a second, and a job killed just after it lost up to a second of rows).
  outputs_.flush();
  if (watchdog_ != nullptr) watchdog_->beat("the checkpoint of coupling step", step);
}

void CouplingCheckpoints::after_substep(const DistributedTerrain&, double step_seconds) {
  if (first_step_seen_) slowest_step_ = std::max(slowest_step_, step_seconds);
  first_step_seen_ = true;
}

}  // namespace trackcosim::terrain
