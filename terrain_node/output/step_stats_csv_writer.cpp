#include "terrain_node/output/step_stats_csv_writer.h"

#include "io/number_text.h"

namespace trackcosim::terrain {

std::string step_stats_csv_header() {
  std::string header = "step,t,contacts,iterations,residual,kinetic_energy,max_penetration";
  for (const std::string_view stage : kTerrainStageNames) (header += ',') += stage;
  return header + ",wall_total";
}

void StepStatsCsvWriter::write(std::uint64_t step, real t, const gpu::StepStats& s, const StageSeconds& stages,
                               double wall_seconds) {
  row_.clear();
  const auto field = [this](auto value) {
    row_ += ',';
    io::append_number(row_, value);
  };
  io::append_number(row_, step);
  field(t);
  field(s.contacts);
  field(s.iterations);
  field(s.residual);
  field(s.kinetic_energy);
  field(s.max_penetration);
  for (const double seconds : stages) field(seconds);
  field(wall_seconds);
  csv_.write_row(row_);
}

}  // namespace trackcosim::terrain
