#pragma once
// What a terrain's co-simulation did, for its closing line and run.json (run_coupling).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "gpu/memory/transfer_count.h"
#include "terrain_node/coupling/moving_patch.h"

namespace trackcosim::terrain {

struct CouplingSummary {
  std::uint64_t coupling_steps = 0;
  std::size_t shoes = 0;
  double wall_seconds = 0;
  double wait_seconds = 0;      ///< the leader waiting for the vehicle's states
  double terrain_seconds = 0;   ///< the sub-steps
  double exchange_seconds = 0;  ///< broadcasts, load reduction, sending forces
  bool stopped = false;         ///< ended with a checkpoint, not by the vehicle's finish
  std::string stop_reason;      ///< the leader's: the vehicle's checkpoint reason, or this terrain's signal
  int signal = 0;               ///< the stop signal a terrain rank caught (0: none)
  std::optional<PatchSummary> patch;  ///< with cosim.moving_patch (its seconds are in none of the above)
  std::size_t snapshot_frames = 0;    ///< listed in particles.pvd (the leader's count)
  double snapshot_seconds = 0;        ///< writing them (in none of the above)
  /// This rank's copies between host and device memory over the coupling (on a GPU each one is
  /// a synchronisation; the CPU build counts the same copies: gpu/memory/transfer_count.h).
  gpu::TransferBytes device_copies;
};

}  // namespace trackcosim::terrain
