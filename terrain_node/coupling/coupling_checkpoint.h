#pragma once
// The terrain's checkpoint of a co-simulation (docs/checkpoint-format.md, "Co-simulation
// checkpoints"): the usual terrain checkpoint (terrain_node/checkpoint/terrain_checkpoint.h: every body, the shoe
// proxies included, and the warm-start impulses, rank-count independent) whose JSON text, the
// `config_text` section, carries the coupling it belongs to under the key "cosim" (and the run's
// config record, terrain_node/checkpoint/start_state.h, under "config"). It is written
// at t_k, the start of coupling step k, when the vehicle asks for it (a checkpoint frame), and
// terrain_node --cosim --restart continues from it with a vehicle that resumes at step k.

#include <cstdint>
#include <filesystem>
#include <string>

#include "terrain_node/checkpoint/terrain_checkpoint.h"
#include "terrain_node/distributed/distributed_terrain.h"

namespace trackcosim::terrain {

struct CouplingMark {
  std::uint64_t step = 0;     ///< k: the coupling step the vehicle resumes at
  double vehicle_time = 0;    ///< t_k as the vehicle counts it (s)
  double coupling_step = 0;   ///< s
  std::uint64_t shoes = 0;
  gpu::GlobalId first_proxy = 0;  ///< the shoe proxies are gids first_proxy .. first_proxy + shoes - 1
};

/// Collective: gathers the terrain and writes it with `mark` to `path` (the leader writes).
/// `record` (checkpoint_record of the run's start state, or empty) goes into the text beside the
/// mark, so that a --restart checks its config against the run's as a standalone restart does,
/// and a run that started from a saved bed goes on with that bed.
void write_coupling_checkpoint(const DistributedTerrain& terrain, const CouplingMark& mark,
                               const std::filesystem::path& path, const std::string& record = {});

/// The mark of a co-simulation checkpoint. Throws io::ConfigError naming the file when it has
/// none (a standalone run's checkpoint: continue that with terrain_node --config X --restart).
CouplingMark read_coupling_mark(const CheckpointShare& checkpoint, const std::filesystem::path& file);

}  // namespace trackcosim::terrain
