#pragma once
// The moving patch in the coupling loop (docs/moving-patch.md): once per coupling step, after
// the proxies took the step's shoe states and before the sub-steps, the patch follows the shoes
// (moving_patch.h) and patch.csv gets its row.

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <vector>

#include "terrain_node/coupling/coupling_observer.h"
#include "terrain_node/coupling/moving_patch.h"

namespace trackcosim::terrain {

class PatchFollower : public CouplingObserver {
 public:
  /// `csv` empty: writes no patch.csv (the ranks other than the leader). A resumed coupling keeps
  /// the file's rows before `first_step`, as timing.csv does, and goes on after them.
  PatchFollower(const MovingPatchSettings& settings, real largest_radius, const std::filesystem::path& csv,
                bool resume, std::uint64_t first_step);

  void on_states(DistributedTerrain& terrain, const CouplingStep& step,
                 const std::vector<cosim::ShoeState>& states) override;
  void on_end(const DistributedTerrain&, CouplingSummary& summary) override { summary.patch = patch_.summary(); }

 private:
  MovingPatch patch_;
  std::ofstream csv_;
  std::vector<Vec3> shoes_;  ///< the shoe reference points of the step
};

}  // namespace trackcosim::terrain
