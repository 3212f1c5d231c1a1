#include "terrain_node/checkpoint/start_state.h"

#include <stdexcept>

#include "io/json_fields.h"

namespace trackcosim::terrain {
namespace {

/// The gid ranges of a saved bed: runs of consecutive gids with the same motion. Dynamic runs
/// are named as particles (is_particle), so the co-simulation's welcome counts them and
/// the bed's surface is found; the rest (walls, obstacles) as fixed bodies.
std::vector<GidRange> checkpoint_gid_ranges(const gpu::BodySet& b, const std::filesystem::path& file) {
  std::vector<GidRange> ranges;
  for (std::size_t i = 0; i < b.size(); ++i) {
    const bool dynamic = b.motion[i] == gpu::Motion::Dynamic;
    const std::string what = (dynamic ? "particles[] (checkpoint " : "fixed bodies (checkpoint ") + file.string() + ")";
    if (!ranges.empty() && ranges.back().what == what && ranges.back().first + ranges.back().count == b.gid[i])
      ++ranges.back().count;
    else
      ranges.push_back({what, b.gid[i], 1});
  }
  return ranges;
}

}  // namespace

StartState load_start_state(const std::filesystem::path& config, const std::filesystem::path& restart,
                            const std::filesystem::path& from_checkpoint) {
  if (!restart.empty() && !from_checkpoint.empty())
    throw std::invalid_argument("--restart and --from-checkpoint exclude each other: --restart continues a run, "
                                "--from-checkpoint starts a new one on a saved bed");
  if (from_checkpoint.empty()) {
    // Each rank generates its own particles (DistributedTerrain): only the fixed bodies here.
    StartState s{load_terrain_config(config, BuildBodies::FixedOnly), std::nullopt};
    if (!restart.empty()) s.checkpoint = read_checkpoint(restart);
    return s;
  }
  // The config's generators do not run: the checkpoint is the bed.
  StartState s;
  s.config.source = config.string();
  s.config.scene = read_terrain_scene(io::load_json_document(config), s.config.source);
  s.checkpoint = read_checkpoint(from_checkpoint);
  s.checkpoint->step = 0;
  s.checkpoint->time = 0;
  s.config.bodies = s.checkpoint->bodies;
  s.config.gid_ranges = checkpoint_gid_ranges(s.config.bodies, from_checkpoint);
  return s;
}

}  // namespace trackcosim::terrain
