#pragma once
// The terrain side of a co-simulation (DESIGN.md, "Co-simulation contract"), collective over
// the terrain ranks. The leader talks to the vehicle through a TerrainCoupler; every coupling
// step it broadcasts the shoe states, all ranks move the shoe proxies (kinematic sphere sets
// held by every rank) and run the terrain's sub-steps, the loads on the proxies are summed
// exactly over the ranks, and the leader sends their mean over the interval back.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

#include "comm/stop_signal.h"
#include "comm/watchdog.h"
#include "cosim/coupler.h"
#include "terrain_node/config/terrain_config.h"
#include "terrain_node/coupling/coupling_checkpoint.h"
#include "terrain_node/coupling/moving_patch.h"
#include "terrain_node/distributed/distributed_terrain.h"

namespace trackcosim::terrain {

/// A failure of the terrain leader (a lost or refused vehicle) that every terrain rank throws
/// alike: the leader reports it, the other ranks stay silent.
class LeaderFailure : public std::runtime_error {
 public:
  LeaderFailure(const std::string& reason, bool peer_lost) : std::runtime_error(reason), peer_lost_(peer_lost) {}
  /// The vehicle stopped answering or broke the connection (exit status 3).
  bool peer_lost() const { return peer_lost_; }

 private:
  bool peer_lost_;
};

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
};

/// Walltime safety and resumption (docs/protocol.md, "Checkpoints").
struct CouplingControl {
  /// Polled on every rank once per coupling step (one small allreduce, which also replaces the
  /// barrier after the sub-steps); null: the session never stops on a signal.
  const comm::StopSignal* stop = nullptr;
  /// Where a checkpoint frame (or a stop with a vehicle that cannot checkpoint) writes the
  /// terrain checkpoint; empty: the welcome offers no checkpoints.
  std::filesystem::path checkpoint;
  /// Continue this coupling: the terrain was restarted from its checkpoint, which holds the
  /// proxies; the hello must resume at resume->step.
  const CouplingMark* resume = nullptr;
  /// The hello agreed before the bed was built (agree_on_hello); null: run_coupling receives it
  /// first, after the bed is built.
  const cosim::VehicleHello* hello = nullptr;
  /// Told of every terrain step and command on this rank (null: none).
  comm::Watchdog* watchdog = nullptr;
  /// The run's config record for its checkpoints (checkpoint_record; empty: none).
  std::string record;
  /// The run folder, on every rank, where output.snapshot_interval > 0 writes particles.pvd and
  /// particles/ (cosim_snapshots.h); empty: no snapshots.
  std::filesystem::path snapshot_folder;
};

/// Collective: the leader receives the vehicle's hello and checks it against this terrain's
/// coupling step and, for a resumed coupling, its checkpoint's mark (refusing it otherwise);
/// every rank gets it, or the same error. Called before building the bed, so the vehicle's
/// working frames (its "keepalive") cover the building and settling.
cosim::VehicleHello agree_on_hello(const comm::RankGroup& group, cosim::TerrainCoupler* coupler,
                                   const TerrainConfig& config, const CouplingMark* resume);

/// Runs until the vehicle finishes, or until a checkpoint ends the coupling (`control`). `coupler` is the leader's (null on the other ranks).
/// `timing_csv`, when given, gets one row per coupling step (written by the leader): step, t,
/// wait (for the vehicle), terrain (the sub-steps), the leader's collision, prepare, solve and
/// integrate seconds within them, halo (its ghost and solver messages within them, waiting
/// included) and exchange (broadcasts, load reduction, sending the forces). With
/// cosim.moving_patch, patch.csv next to it gets the patch's counts per coupling step. Snapshots
/// (control.snapshot_folder) are taken before the sub-step they fall on, after the patch has
/// followed the shoes, so a frame's classes are those of patch.csv's row of its coupling step.
CouplingSummary run_coupling(DistributedTerrain& terrain, const TerrainConfig& config,
                             cosim::TerrainCoupler* coupler, const std::filesystem::path* timing_csv = nullptr,
                             const CouplingControl& control = {});

}  // namespace trackcosim::terrain
