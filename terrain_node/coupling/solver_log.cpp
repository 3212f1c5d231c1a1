#include "terrain_node/coupling/solver_log.h"

#include <algorithm>
#include <string>
#include <vector>

#include "io/number_text.h"

namespace trackcosim::terrain {

SolverLog::SolverLog(const std::filesystem::path& file, bool resume, std::uint64_t first_step) {
  if (!file.empty()) io::open_continued(csv_, file, "step,t,contacts,iterations,residual,max_grain_speed,fastest_x,fastest_y,fastest_z", resume, first_step);
}

void SolverLog::after_substep(const DistributedTerrain& terrain, double) {
  const gpu::StepStats& s = terrain.local_stats();
  iterations_ += s.iterations;
  residual_ = std::max(residual_, static_cast<double>(s.residual));
}

void SolverLog::on_advanced(const DistributedTerrain& terrain, const CouplingStep& step) {
  const std::uint64_t contacts = terrain.contact_total();
  const DistributedTerrain::FastestGrain fastest = terrain.fastest_grain();
  const double residual = terrain.group().max(residual_);
  if (csv_) {
    std::string row;
    io::append_number(row, step.index);
    for (const double value : {step.time, static_cast<double>(contacts), static_cast<double>(iterations_), residual,
                               fastest.speed, fastest.position[0], fastest.position[1], fastest.position[2]})
      io::append_number(row += ',', value);
    csv_->write_row(row);
  }
  iterations_ = 0;
  residual_ = 0;
}

}  // namespace trackcosim::terrain
