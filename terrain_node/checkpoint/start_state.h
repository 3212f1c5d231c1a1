#pragma once
// How a terrain run begins. Three ways, named on the command line:
//
//   (none)                   the config's generators build the bed at t = 0;
//   --restart FILE           CONTINUE the run that wrote FILE: its bodies, warm start, step
//                            count and time; the config must be that run's. What makes the
//                            bed or its clock (container, material, particles, obstacles,
//                            gravity, step_size) must not change, and a config that makes
//                            another number of bodies or spheres is refused, naming both;
//                            end_time, solver, collision, output, settle, domain and cosim may;
//   --from-checkpoint FILE   START A NEW RUN on the bed FILE holds (e.g. a settled bed): its
//                            bodies and warm start, but t = 0, step 0, fresh outputs and this
//                            config's own end time, settle criterion, solver and outputs; the
//                            config's container and particles are not built, its `bodies` are
//                            added to the bed with the gids after the file's last one.
//
// With a checkpoint, the config's bodies are replaced by the checkpoint's fixed bodies and its
// gid ranges by the file's, so everything that reads them (the plan, the co-simulation's welcome,
// the shoe proxies' gids, the check of output.probes) sees the bed that runs, and StartState's
// counts are the checkpoint's.
// Every rank reads only its block of the file (checkpoint_share.h), whatever the rank count.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "comm/rank_group.h"
#include "terrain_node/checkpoint/checkpoint_share.h"
#include "terrain_node/config/terrain_config.h"

namespace trackcosim::terrain {

struct StartState {
  TerrainConfig config;
  std::optional<CheckpointShare> checkpoint;  ///< this rank's share: what DistributedTerrain starts from
  /// The bed that runs: walls, particles and obstacles (a co-simulation's shoe proxies are not
  /// counted); from the checkpoint when there is one. run.json and the plan print these.
  std::uint64_t bodies = 0, spheres = 0;
  /// The checkpoint whose bodies are the bed when the config's generators did not make it: the
  /// --from-checkpoint file, or the one the run that --restart continues started from.
  std::string bed_checkpoint;
  std::string restart;  ///< the --restart file, empty otherwise
};

/// Collective over the terrain's ranks `group` (each reads its block of a checkpoint). At most
/// one of `restart` and `from_checkpoint` may be non-empty (std::invalid_argument).
/// Throws ConfigError for a bad config or a --restart whose config is not the checkpoint's run's
/// (naming what differs and both values), std::runtime_error naming the file for a bad
/// checkpoint.
StartState load_start_state(const comm::RankGroup& group, const std::filesystem::path& config,
                            const std::filesystem::path& restart, const std::filesystem::path& from_checkpoint);

/// The text a standalone run stores in its checkpoints (TerrainCheckpoint::config_text): its
/// resolved config and, when its bed came from a checkpoint, that file's name. A --restart
/// compares its own config with it (docs/checkpoint-format.md, "Config record").
std::string checkpoint_record(const StartState& start);

}  // namespace trackcosim::terrain
