#pragma once
// Particle snapshots of a co-simulation (docs/terrain-config.md, "cosim"): a frame at coupling
// time 0 (the settled bed as the vehicle meets it; settling itself is not recorded), every
// output.snapshot_interval terrain steps after it, and at the last step. Frames are timed by
// coupling time, the vehicle's t (terrain step n of the coupling is at n h, while the terrain's
// own clock also counts the settle time), so ParaView plays the terrain's series beside the
// vehicle's. The frames are written in parallel, one piece per rank, as a standalone run writes
// them (output/particle_series.h):
//   particles.pvd                   timestep = coupling time, file = particles/step_<k>.pvtu
//   particles/step_<k>.pvtu         k = the terrain step (as a standalone run names its frames)
//   particles/step_<k>_r<rank>.vtu  the bodies terrain rank <rank> owns, its store included

#include <cstdint>
#include <filesystem>
#include <optional>

#include "terrain_node/config/terrain_config.h"
#include "terrain_node/coupling/coupling_observer.h"
#include "terrain_node/distributed/distributed_terrain.h"
#include "terrain_node/output/particle_series.h"

namespace trackcosim::terrain {

/// The terrain steps between a co-simulation's frames: output.snapshot_interval when the config
/// gives it (0: none), else the steps of 0.1 s, so that a run can be looked at and rendered unless
/// it is told not to (binary frames of a 10^5-grain bed are about 3 MB).
std::uint64_t cosim_snapshot_interval(const OutputSettings& output, real step_size);

class CosimSnapshots : public CouplingObserver {
 public:
  /// Collective. `coupling_start`: the terrain step at coupling time 0. A terrain at a later step
  /// (a resumed coupling) continues the series: the frames on the grid before its step are the
  /// earlier run's and stay listed (files of the earlier run after that step are rewritten or left
  /// out of the .pvd). Throws OutputError.
  CosimSnapshots(const DistributedTerrain& terrain, const std::filesystem::path& folder, std::uint64_t interval,
                 real step_size, std::uint64_t coupling_start, io::vtk::Encoding encoding);

  /// Collective, before each sub-step: a frame when the terrain's step is on the grid (coupling
  /// step 0 and every `interval` terrain steps after it).
  void before_substep(const DistributedTerrain& terrain) override;
  /// Collective: the frame of the terrain's step unless it has one, the last of the run; the
  /// frames listed in the series (the leader's count; 0 on the other ranks) and the seconds spent
  /// writing them go into the summary.
  void on_end(const DistributedTerrain& terrain, CouplingSummary& summary) override;

 private:
  void write(const DistributedTerrain& terrain);
  double coupling_time(std::uint64_t step) const;
  std::vector<io::PvdSeries::Entry> earlier_frames(const std::filesystem::path& folder, std::uint64_t now) const;

  std::uint64_t interval_;
  real step_size_;
  std::uint64_t coupling_start_;
  std::optional<std::uint64_t> last_step_;  ///< of the last frame written
  double seconds_ = 0;                      ///< writing the frames
  ParticleSeries series_;
};

}  // namespace trackcosim::terrain
