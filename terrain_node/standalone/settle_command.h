#pragma once
// terrain_node --config: a standalone granular run without a vehicle. It loads a terrain config
// (docs/terrain-config.md), steps the rigid-body system to the end time and writes the run's
// folder: probes.csv, stats.csv, particle snapshots (.vtu + particles.pvd) and run.json. It is
// how a terrain bed is settled before a vehicle drives on it, and how the contact engine is
// exercised on a real scene. It runs on any number of ranks (mpiexec -n N terrain_node
// --config X): the terrain is split over them (distributed_terrain.h) and the files are the same
// whatever N is. Without mpiexec it runs as one rank.

#include <cstdint>
#include <filesystem>
#include <string>

namespace trackcosim::terrain {

struct SettleOptions {
  std::filesystem::path config;   ///< the terrain config
  std::filesystem::path out_dir;  ///< empty: output/<config stem>
  int threads = 0;  ///< --threads; 0: OMP_NUM_THREADS, else the default of runtime/thread_choice.h
  std::string layout;              ///< overrides the config's domain.layout when not empty
  std::filesystem::path restart;   ///< a checkpoint to continue from (any rank count wrote it)
  /// A checkpoint whose bed a NEW run starts from (t = 0, this config's end time, settle
  /// criterion and outputs); excludes `restart` (start_state.h).
  std::filesystem::path from_checkpoint;
  std::uint64_t checkpoint_at = 0; ///< also write checkpoint.bin after this step (0: never)
  /// A rank that finishes no step for this long (or 10 times its slowest step, if longer) ends
  /// the job with exit status 3: a peer rank is lost (step_watch.h). <= 0: never.
  double peer_timeout = 20;
};

/// The folder a run writes to: out_dir, or output/<config stem> when out_dir is empty.
std::filesystem::path settle_output_folder(const SettleOptions& options);

/// Runs the scene to its end time, or with a settle section until the bed is at rest or the time
/// cap (settle_criterion.h), writing the outputs as it goes (a killed run leaves usable files)
/// and a progress line every few seconds. At the end it measures the bed (settle.json,
/// heightmap.csv/.png, settle_statistics.h), writes a final snapshot and, with a settle section,
/// checkpoint.bin for later runs (--from-checkpoint). Prints a summary on stdout whose last line is
/// `settle bodies=<n> steps=<k> contacts=<c> seconds=<s> ranks=<r> stop=<reason> rms_speed=<v>
/// depth_mean=<m> packing=<f|n/a> contacts_per_particle=<z>` (n/a: the bed is too small for a
/// packing sample box; the `packing` line above says why). Collective over the terrain
/// ranks among all ranks of the job (initialises MPI when the caller has not). Bad input throws io::ConfigError,
/// io::OutputError or std::invalid_argument with a message meant for the user.
void run_settle_command(const SettleOptions& options);

}  // namespace trackcosim::terrain
