#pragma once
// How a terrain run begins. Three ways, named on the command line:
//
//   (none)                   the config's generators build the bed at t = 0;
//   --restart FILE           CONTINUE the run that wrote FILE: its bodies, warm start, step
//                            count and time; the config must be that run's (the same end
//                            time and outputs carry on where they stopped);
//   --from-checkpoint FILE   START A NEW RUN on the bed FILE holds (e.g. a settled bed): its
//                            bodies and warm start, but t = 0, step 0, fresh outputs and this
//                            config's own end time, settle criterion, solver and outputs; the
//                            config's container and particles are not built.
//
// With a checkpoint, the config's bodies are replaced by the checkpoint's, so everything that
// reads config.bodies (snapshots, the co-simulation's welcome, the shoe proxies' gids) sees the
// bed that runs. Every rank reads the file itself (it is independent of the rank count).

#include <filesystem>
#include <optional>

#include "terrain_node/checkpoint/terrain_checkpoint.h"
#include "terrain_node/config/terrain_config.h"

namespace trackcosim::terrain {

struct StartState {
  TerrainConfig config;
  std::optional<TerrainCheckpoint> checkpoint;  ///< what DistributedTerrain starts from
};

/// At most one of `restart` and `from_checkpoint` may be non-empty (std::invalid_argument).
/// Throws ConfigError for a bad config, std::runtime_error naming the file for a bad checkpoint.
StartState load_start_state(const std::filesystem::path& config, const std::filesystem::path& restart,
                            const std::filesystem::path& from_checkpoint);

}  // namespace trackcosim::terrain
