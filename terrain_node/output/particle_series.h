#pragma once
// A run's particle snapshots, written in parallel: no rank gathers another's bodies, so no rank
// ever holds the whole terrain for an output. Each rank writes the piece it holds
// (DistributedTerrain::snapshot_piece: the particles it owns, with a moving patch its share of
// the fixed ones and its store, each with its class in `state`), and the leader writes the
// .pvtu naming the pieces and rewrites the .pvd, after a barrier so that both name only pieces
// already on disk:
//   particles.pvd                   the frames by time (the caller's clock)
//   particles/step_<k>.pvtu         k = the terrain step
//   particles/step_<k>_r<rank>.vtu  the particles terrain rank <rank> shows
// The standalone run (standalone/run_folder.h) and the co-simulation (coupling/cosim_snapshots.h)
// decide when a frame is taken and at which time it is listed; this class writes it, so that
// both series look alike.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "io/pvd_series.h"
#include "io/vtk_xml.h"
#include "terrain_node/distributed/distributed_terrain.h"

namespace trackcosim::terrain {

class ParticleSeries {
 public:
  /// Collective. The leader creates <run_folder>/particles/, removes the snapshot files of an
  /// earlier run there when `fresh`, and starts <run_folder>/particles.pvd listing `earlier` (the
  /// frames of a run this one continues). Frames are written in `encoding`. Throws OutputError.
  ParticleSeries(const DistributedTerrain& terrain, const std::filesystem::path& run_folder, bool fresh,
                 io::vtk::Encoding encoding, std::vector<io::PvdSeries::Entry> earlier = {});

  /// Collective: the frame of the terrain's current step, listed in the .pvd at `time`.
  void write(const DistributedTerrain& terrain, double time);

  /// The .pvd's name of the frame of terrain step `step` (relative to the run folder).
  static std::string frame_file(std::uint64_t step);
  /// Frames listed in the .pvd (the leader's count; 0 on the other ranks).
  std::size_t frames() const { return series_ ? series_->entries().size() : 0; }

 private:
  std::filesystem::path folder_;            ///< <run_folder>/particles
  io::vtk::Encoding encoding_;
  std::optional<io::PvdSeries> series_;     ///< the leader's
};

}  // namespace trackcosim::terrain
