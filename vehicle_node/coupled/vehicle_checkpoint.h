#pragma once
// The vehicle side of a co-simulation checkpoint (docs/checkpoint-format.md, "Vehicle
// checkpoint"): what vehicle_node --terrain needs to continue a coupling that a stop signal
// interrupted at the start of coupling step k (or that crashed after its periodic checkpoint of
// step k, --checkpoint-interval), bit for bit as if it had never stopped: the
// multibody state (mbd/multibody_state.h), the forces of interval k - 1 (the concurrent scheme
// applies them over interval k), the output rows written so far (so the resumed run's
// vehicle.csv, shoes.csv and timing.csv hold the whole history) and the run's accumulators; with a
// drawbar rig, also rig.csv so far and the rig's sums of the output row in progress.
// One versioned binary file, written atomically and checksummed (io/checkpoint_file.h).

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "cosim/shoe_exchange.h"
#include "vehicle_node/mbd/multibody_state.h"

namespace trackcosim::vehicle {

struct VehicleCheckpoint {
  std::uint64_t coupling_step_index = 0;  ///< k: coupling steps done, the next one to run
  double coupling_step = 0;               ///< H (s)
  std::string scheme;                     ///< "concurrent" or "sequential"
  std::string config_file;                ///< the vehicle config the run used (informational)
  double surface_height = 0;              ///< where the first run placed the vehicle (its welcome), m
  double start_x = 0;                     ///< chassis x at t = 0, for the distance travelled, m
  std::uint64_t particles = 0;            ///< the terrain's, from the first welcome
  double wall_seconds = 0, wait_seconds = 0;  ///< summed over the runs so far
  MultibodyState system;
  std::vector<cosim::ShoeForce> forces;   ///< the last forces received (interval k - 1), per shoe
  std::uint64_t recorder_frames = 0;
  std::string vehicle_csv, shoes_csv, timing_csv;  ///< the output files' text so far, headers included
  /// With a drawbar rig (format version 2; a version 1 file has none): rig.csv's text so far and
  /// the sums of the row being accumulated (VehicleRig::Progress). Empty text: no rig.
  std::string rig_csv;
  std::uint64_t rig_steps = 0;
  std::array<double, 9> rig_sums{};
};

/// Writes `path` atomically (temp name, fsync, rename). Throws io::OutputError naming the path.
void write_vehicle_checkpoint(const std::filesystem::path& path, const VehicleCheckpoint& checkpoint);

/// Throws std::runtime_error "checkpoint <path>: <problem>": not a vehicle checkpoint (magic; a
/// terrain checkpoint is named as such), unsupported version (found vs supported), truncated
/// (expected vs found bytes), checksum mismatch, inconsistent contents.
VehicleCheckpoint read_vehicle_checkpoint(const std::filesystem::path& path);

}  // namespace trackcosim::vehicle
