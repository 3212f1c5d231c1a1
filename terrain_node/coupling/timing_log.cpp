// terrain/timing.csv of a co-simulation (timing_log.h).

#include "terrain_node/coupling/timing_log.h"

#include <string>
#include <string_view>

#include "io/number_text.h"

namespace trackcosim::terrain {

TimingLog::TimingLog(const std::filesystem::path& file, bool resume, std::uint64_t first_step) {
  if (file.empty()) return;
  std::string header = "step,t,wait,terrain";
  for (const std::string_view name : kTerrainStageNames) (header += ',') += name;
  io::open_continued(csv_, file, header + ",imbalance,halo,exchange", resume, first_step);
}

void TimingLog::after_substep(const DistributedTerrain& terrain, double) {
  for (std::size_t k = 0; k < stages_.size(); ++k) stages_[k] += terrain.stage_seconds()[k];
  halo_ += terrain.exchange_stats().seconds + terrain.exchange_stats().solver_seconds;
}

void TimingLog::on_sent(const CouplingStep& step, const CouplingStepTimes& times) {
  if (csv_) {
    std::string row;
    io::append_number(row, step.index);
    const auto field = [&row](double value) { io::append_number(row += ',', value); };
    for (const double value : {step.time, times.wait, times.compute}) field(value);
    for (const double seconds : stages_) field(seconds);
    for (const double value : {times.imbalance, halo_, times.exchange}) field(value);
    csv_->write_row(row);
  }
  stages_ = {};
  halo_ = 0;
}

}  // namespace trackcosim::terrain
