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
#include "terrain_node/coupling/coupling_summary.h"
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

/// Runs until the vehicle finishes, or until a checkpoint ends the coupling (`control`). `coupler`
/// is the leader's (null on the other ranks). Each coupling step reads as the protocol: receive
/// (the leader hears from the vehicle and broadcasts the command and states), fan out (the proxies
/// take the states), advance (the sub-steps), reduce (the loads over the ranks) and send (the
/// leader's forces), with the outputs as observers called at those points (coupling_observer.h).
/// `timing_csv`, when given, gets one row per coupling step from the leader (timing_log.h), and
/// solver.csv, ranks.csv and, with cosim.moving_patch, patch.csv beside it. Snapshots
/// (control.snapshot_folder) are taken before the sub-step they fall on, after the patch has
/// followed the shoes, so a frame's classes are those of patch.csv's row of its coupling step.
CouplingSummary run_coupling(DistributedTerrain& terrain, const TerrainConfig& config,
                             cosim::TerrainCoupler* coupler, const std::filesystem::path* timing_csv = nullptr,
                             const CouplingControl& control = {});

}  // namespace trackcosim::terrain
