#pragma once
// terrain/timing.csv of a co-simulation, written by the leader: one row per coupling step,
// streamed (io/csv_stream.h: whole rows, flushed at least every second):
//   step, t            the coupling step and its start time [s]
//   wait               the leader's wait for the vehicle's states
//   terrain            the sub-steps, which the next columns partition:
//   <stages>           the leader's own time in each stage of them (terrain_step_stages.h)
//   imbalance          its wait for the slowest terrain rank at their end (the rest of
//                      `terrain` is loop and timer overhead)
//   halo               its ghost, migration and solver messages, which happen INSIDE the stages
//                      (ghosts, solve, integrate) and are not added to them
//   exchange           broadcasts, load reduction, sending the forces
// A new coupling starts the file with the header; a resumed one keeps the rows of the steps
// before its first (a stopped run may have timed steps it did not checkpoint) and appends.

#include <cstdint>
#include <filesystem>
#include <optional>

#include "io/csv_stream.h"
#include "terrain_node/coupling/coupling_observer.h"

namespace trackcosim::terrain {

class TimingLog : public CouplingObserver {
 public:
  /// `file` empty: writes nothing (the ranks other than the leader).
  TimingLog(const std::filesystem::path& file, bool resume, std::uint64_t first_step);

  void after_substep(const DistributedTerrain& terrain, double step_seconds) override;
  void on_sent(const CouplingStep& step, const CouplingStepTimes& times) override;
  void flush() override {
    if (csv_) csv_->flush();
  }

 private:
  std::optional<io::CsvStream> csv_;
  StageSeconds stages_{};  ///< summed over the step's sub-steps
  double halo_ = 0;
};

}  // namespace trackcosim::terrain
