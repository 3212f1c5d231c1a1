#pragma once
// stats.csv: one row per time step, streamed (io/csv_stream.h). The stage columns are named
// after kTerrainStageNames, so the file, the timers and timing.csv share one list.
//
// Columns: step, t [s, after the step], contacts, iterations, residual, kinetic_energy [J],
// max_penetration [m], one column per stage of the terrain step [s of wall time on the leader],
// wall_total [s of wall time for the whole step, stages plus what none of them owns].

#include <cstdint>
#include <filesystem>
#include <string>

#include "gpu/dynamics/step_stats.h"
#include "io/csv_stream.h"
#include "terrain_node/distributed/terrain_step_stages.h"

namespace trackcosim::terrain {

std::string step_stats_csv_header();

class StepStatsCsvWriter {
 public:
  /// Creates the file and writes the header. Throws OutputError.
  explicit StepStatsCsvWriter(std::filesystem::path file) : csv_(std::move(file), step_stats_csv_header()) {}

  void write(std::uint64_t step, real t, const gpu::StepStats& stats, const StageSeconds& stages, double wall_seconds);
  void flush() { csv_.flush(); }

 private:
  io::CsvStream csv_;
  std::string row_;
};

}  // namespace trackcosim::terrain
