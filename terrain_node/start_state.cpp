#include "terrain_node/start_state.h"

#include <stdexcept>

#include "cosim/json_fields.h"

namespace trackcosim::terrain {

StartState load_start_state(const std::filesystem::path& config, const std::filesystem::path& restart,
                            const std::filesystem::path& from_checkpoint) {
  if (!restart.empty() && !from_checkpoint.empty())
    throw std::invalid_argument("--restart and --from-checkpoint exclude each other: --restart continues a run, "
                                "--from-checkpoint starts a new one on a saved bed");
  if (from_checkpoint.empty()) {
    StartState s{cosim::load_terrain_config(config), std::nullopt};
    if (!restart.empty()) s.checkpoint = cosim::read_checkpoint(restart);
    return s;
  }
  // The config's generators do not run: the checkpoint is the bed.
  StartState s;
  s.config.source = config.string();
  s.config.scene = cosim::read_terrain_scene(cosim::load_json_document(config), s.config.source);
  s.checkpoint = cosim::read_checkpoint(from_checkpoint);
  s.checkpoint->step = 0;
  s.checkpoint->time = 0;
  s.config.bodies = s.checkpoint->bodies;
  const gpu::BodySet& b = s.config.bodies;
  s.config.gid_ranges = {{"checkpoint " + from_checkpoint.string(), b.size() > 0 ? b.gid.front() : 0, b.size()}};
  return s;
}

}  // namespace trackcosim::terrain
