#pragma once
// vehicle_node --terrain mpi|tcp: the vehicle of a config file driven on the granular terrain of
// a terrain_node, through the coupler every external model uses (cosim/coupler.h). Each
// coupling step k: send the shoe states at t_k; advance the vehicle over [t_k, t_k + H] with
// the terrain forces of the previous interval applied to the shoes; receive the forces of
// interval k. The vehicle is placed on the terrain's surface height from the handshake.
// Outputs as standalone (vehicle.csv, shoes.csv, the VTK series with the terrain's shoe spheres,
// run.json) plus timing.csv (per coupling step:
// vehicle compute and wait seconds, and the terrain's total vertical force on the shoes, N).
//
// Walltime safety (docs/protocol.md, "Checkpoints"): SIGUSR1 or SIGTERM, or a forces_stop from
// the terrain, ends the run at the start of the next coupling step k with DIR/checkpoint.bin
// (vehicle_checkpoint.h) and a checkpoint frame that makes the terrain write its own; the
// summary then names the stop. `restart` continues such a run in the same folder.
// `checkpoint_interval` writes the same pair of checkpoints while the run goes on (a checkpoint
// frame with "continue"), so that a run that crashes resumes from its last one.

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>

namespace trackcosim::vehicle {

struct CoupledOptions {
  std::filesystem::path config;
  std::filesystem::path out_dir = "output/vehicle";
  std::optional<double> end_time, step;
  std::string transport = "mpi";  ///< "mpi": one MPI job with terrain_node; "tcp": connect to host:port
  std::string host = "127.0.0.1";
  int port = 47000;
  /// s: the longest silence of the terrain on any wait; it sends working frames while it builds,
  /// settles and steps (docs/protocol.md), so this bounds a hang, not the terrain's work
  double timeout = 20;
  double coupling_step = 0;       ///< s; 0 = the vehicle step
  /// or "concurrent" (docs/protocol.md, "Coupling schemes"); every shipped run is sequential
  std::string scheme = "sequential";
  /// "explicit": the terrain's forces are held over the interval; "implicit": the vehicle also
  /// gets each shoe's contact stiffness and damping and integrates the load implicitly, which
  /// lets the terrain give the shoes stiff springs (docs/protocol.md, "Implicit shoe loads";
  /// sequential scheme only)
  std::string shoe_loads = "explicit";
  double progress_seconds = 5.0;
  std::filesystem::path restart;  ///< a vehicle checkpoint to continue from (empty: a new run)
  /// s; > 0: both checkpoints every round(interval / coupling step) coupling steps (at least
  /// one), counted from step 0, so that a resumed run keeps the schedule; 0: only on a stop
  double checkpoint_interval = 0;
  std::filesystem::path rig;      ///< a drawbar-pull rig file (cosim/drawbar_rig.h) in place of the driver
};

struct CoupledSummary {
  std::size_t coupling_steps = 0;  ///< done in all runs so far (the step a stopped run resumes at)
  std::size_t shoes = 0;
  std::uint64_t particles = 0;
  double simulated_seconds = 0, wall_seconds = 0, wait_seconds = 0;
  double distance_m = 0;      ///< chassis travel along x
  /// Mean depth of the loaded shoes' lowest points below the highest grain top at the start (the
  /// handshake's surface height) at the last step: a quick figure of the vehicle alone. The
  /// launcher's sinkage is against the local undisturbed surface (tools/mobility/sinkage.py).
  double below_top_m = 0;
  std::string stopped_by;     ///< empty: the run reached its end; else who stopped it ("USR1", "terrain")
  std::filesystem::path checkpoint;  ///< written when stopped
};

CoupledSummary run_coupled(const CoupledOptions& options, std::ostream& progress);

}  // namespace trackcosim::vehicle
