#pragma once
// terrain/solver.csv of a co-simulation: what the terrain's solver did in each coupling step,
// the figures that say where a heavy run's time goes and whether the bed stays calm
// (docs/protocol.md, "Outputs"). One row per coupling step, streamed (io/csv_stream.h):
//   step, t               the coupling step and its start time [s]
//   contacts              grain and proxy contacts at the step's last sub-step, all ranks (each
//                         also carries a rolling row when solver.rolling_friction > 0)
//   iterations            solver iterations summed over the step's sub-steps (the same on every
//                         rank: the solvers iterate together)
//   residual              the largest sub-step residual [m/s] (docs/ccp.md)
//   max_grain_speed       the fastest dynamic body after the step, all ranks [m/s]
//   fastest_x, _y, _z     where that body is [m]: a grain thrown off the track (in flight above
//                         the bed) or one squeezed in the bed (docs/protocol.md, "Outputs")
// A resumed coupling keeps the rows before its first step and appends. An observer of the
// coupling loop (coupling_observer.h).

#include <cstdint>
#include <filesystem>
#include <optional>

#include "io/csv_stream.h"
#include "terrain_node/coupling/coupling_observer.h"
#include "terrain_node/distributed/distributed_terrain.h"

namespace trackcosim::terrain {

class SolverLog : public CouplingObserver {
 public:
  /// `file` empty: a rank that writes nothing (every rank still calls record(): it is collective).
  SolverLog(const std::filesystem::path& file, bool resume, std::uint64_t first_step);

  /// After each sub-step: sums the iterations, keeps the largest residual.
  void after_substep(const DistributedTerrain& terrain, double step_seconds) override;
  /// Collective over the terrain's ranks: ends the coupling step.
  void on_advanced(const DistributedTerrain& terrain, const CouplingStep& step) override;
  /// Every row so far to the file (before a checkpoint: a resume reads them back).
  void flush() override {
    if (csv_) csv_->flush();
  }

 private:
  std::optional<io::CsvStream> csv_;
  std::uint64_t iterations_ = 0;
  double residual_ = 0;
};

}  // namespace trackcosim::terrain
