#pragma once
// terrain_node --config X --cosim: the terrain of a co-simulation. Loads the terrain config,
// settles the bed for cosim.settle_time, then serves one vehicle (vehicle_node in the same MPI
// job, or an external model over TCP, per cosim.transport) until it finishes: coupling_session.h.
// Writes run.json and timing.csv (per coupling step: wait, terrain, exchange seconds) into the
// output folder and prints a summary ending with
//   terrain cosim steps=<n> shoes=<s> ranks=<r> wall_s=<t> wait_share=<w> exchange_share=<x>
// Walltime safety: SIGUSR1/SIGTERM on any terrain rank, or the vehicle's checkpoint frame, end
// the run with DIR/checkpoint.bin and the line
//   terrain stopped step=<k> signal=<USR1|TERM|none> checkpoint=<path>

#include <filesystem>
#include <string>

namespace trackcosim::terrain {

struct CosimOptions {
  std::filesystem::path config;
  std::filesystem::path out_dir;  ///< empty: output/<config stem>
  int threads = 0;  ///< --threads; 0: OMP_NUM_THREADS, else the default of runtime/thread_choice.h
  std::string layout;
  /// Continue the coupling a stop signal ended, from the terrain checkpoint it wrote
  /// (coupling_checkpoint.h): no settling, any rank count; the vehicle must resume at its step.
  std::filesystem::path restart;
  /// A checkpoint whose bed the terrain starts from instead of the config's generators; the
  /// bed counts as settled, so cosim.settle_time is skipped (start_state.h).
  std::filesystem::path from_checkpoint;
  /// Where to write the bed once it has settled, before the first coupling step (a checkpoint
  /// that --from-checkpoint starts later runs of the same terrain from: the launcher's settled-
  /// bed store, docs/settling.md). Empty: not written. Ignored when nothing settles.
  std::filesystem::path save_bed;
};

void run_cosim_command(const CosimOptions& options);

}  // namespace trackcosim::terrain
