#pragma once
// terrain/ranks.csv of a co-simulation: each terrain rank's share of every coupling step, the
// figures that say whether the cuts between ranks balance the work (docs/protocol.md, "Outputs";
// docs/domain-decomposition.md, "Balance"). timing.csv has the leader's clocks only: a leader
// that waits for a slower neighbour inside the solver's exchanges shows it as halo time, and only
// the other ranks' own clocks say which rank was slow and what it held. One row per rank and
// coupling step, written by the leader, streamed (io/csv_stream.h):
//   step, rank          the coupling step and the terrain rank (0 = the leader)
//   owned, ghosts       the dynamic bodies the rank owned and the ghosts it held at the step's end
//   contacts            the contacts the rank solved at the step's last sub-step
//   solve_s             its solve stage (terrain_step_stages.h), summed over the sub-steps [s]
//   halo_s              the part of its stages spent in ghost, count and solver messages
//                       (waiting for a neighbour included) [s]
//   work_s              its whole step less halo_s: the computing that the cuts should balance [s]
// A resumed coupling keeps the rows before its first step and appends. An observer of the
// coupling loop (coupling_observer.h).

#include <cstdint>
#include <filesystem>
#include <optional>

#include "io/csv_stream.h"
#include "terrain_node/coupling/coupling_observer.h"
#include "terrain_node/distributed/distributed_terrain.h"

namespace trackcosim::terrain {

class RankLoadLog : public CouplingObserver {
 public:
  /// `file` empty: a rank that writes nothing (every rank still calls record(): it is collective).
  RankLoadLog(const std::filesystem::path& file, bool resume, std::uint64_t first_step);

  /// After each sub-step, with the seconds terrain.step() took on this rank.
  void after_substep(const DistributedTerrain& terrain, double step_seconds) override;
  /// Collective over the terrain's ranks: ends the coupling step.
  void on_advanced(const DistributedTerrain& terrain, const CouplingStep& step) override;
  void flush() override {
    if (csv_) csv_->flush();
  }

 private:
  std::optional<io::CsvStream> csv_;
  double solve_ = 0;
  double halo_ = 0;
  double step_ = 0;
};

}  // namespace trackcosim::terrain
