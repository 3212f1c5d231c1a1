// The moving patch in the coupling loop (patch_follower.h).

#include "terrain_node/coupling/patch_follower.h"

#include <string>

#include "io/csv_stream.h"

namespace trackcosim::terrain {

PatchFollower::PatchFollower(const MovingPatchSettings& settings, real largest_radius,
                             const std::filesystem::path& csv, bool resume, std::uint64_t first_step)
    : patch_(settings, largest_radius) {
  if (csv.empty()) return;
  const std::vector<std::string> kept = resume ? io::rows_before_step(csv, first_step) : std::vector<std::string>{};
  csv_.open(csv, std::ios::binary | std::ios::trunc);
  csv_ << MovingPatch::csv_header();
  for (const std::string& row : kept) csv_ << row << '\n';
  csv_.flush();
}

void PatchFollower::on_states(DistributedTerrain& terrain, const CouplingStep& step,
                              const std::vector<cosim::ShoeState>& states) {
  // Every rank has the same broadcast states, so every rank puts the same box.
  shoes_.resize(states.size());
  for (std::size_t i = 0; i < states.size(); ++i)
    shoes_[i] = {states[i].position[0], states[i].position[1], states[i].position[2]};
  patch_.follow(terrain, shoes_, step.index, step.time, csv_);
  csv_.flush();  // one whole line at a time: a killed run leaves no partial line
}

}  // namespace trackcosim::terrain
