#pragma once
// The output folder of a standalone terrain run, filled while the run goes on:
//   run.json        what ran: program, version, threads, the bed's body and sphere counts (the
//                   checkpoint's when the run starts from one), gid ranges, resolved config;
//                   rewritten at the end with the totals and each rank's memory ("memory":
//                   resident size at start-up and peak; "status": "running" until then)
//   probes.csv      the chosen bodies at t = 0 and every probe_interval steps
//   stats.csv       one row per step (when output.stats)
//   particles.pvd   the snapshot series by time (when output.snapshot_interval > 0: step 0,
//                   every N steps and the last step; with a settle section always the last
//                   step, the settled bed), each frame written in parallel
//                   (terrain_node/output/particle_series.h):
//     particles/step_<k>.pvtu         the frame of terrain step k, naming one piece per rank
//     particles/step_<k>_r<rank>.vtu  the particles rank <rank> owns (state 0: all active)
//   settle.json     the settled bed's statistics (settle_statistics.h), the stop reason, steps,
//                   time and wall time; also under "settle" in run.json
//   heightmap.csv   the top surface (terrain_node/output/height_map.h), and heightmap.png
//   heightmap.png
// Rows are streamed and flushed every second, the .pvd is rewritten after each snapshot, so a
// killed run leaves files that are complete up to about its last second.
// Every rank constructs and calls it at the same steps: each writes its own piece of a
// snapshot, the probes gather only the chosen bodies, and the terrain leader writes the rest.
// Which rank's piece holds a particle depends on the rank count; what the pieces hold together
// does not, nor do the other files (but run.json's ranks, layout, memory and wall times).

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpu/memory/device_choice.h"
#include "runtime/thread_choice.h"
#include "terrain_node/checkpoint/start_state.h"
#include "terrain_node/config/terrain_config.h"
#include "terrain_node/distributed/distributed_terrain.h"
#include "terrain_node/output/particle_series.h"
#include "terrain_node/output/probe_csv_writer.h"
#include "terrain_node/output/run_memory.h"
#include "terrain_node/output/step_stats_csv_writer.h"

namespace trackcosim::terrain {

struct SettleStatistics;

class RunFolder {
 public:
  /// Creates the folder and its files and records step 0 (probes, first snapshot). Throws
  /// OutputError naming the file that cannot be written. `startup_rss_bytes`: this rank's
  /// resident size before the terrain was built (runtime/memory_usage.h), run.json's baseline.
  /// `device`: where the kernels run (run.json's "device").
  RunFolder(std::filesystem::path folder, const StartState& start, const DistributedTerrain& terrain,
            const runtime::ThreadChoice& threads, const gpu::DeviceChoice& device, std::uint64_t startup_rss_bytes);

  /// Records the step the terrain has just made, with its global statistics (when stats.csv is
  /// written), which took `wall_seconds`.
  void after_step(const DistributedTerrain& terrain, const gpu::StepStats& stats, double wall_seconds);
  /// The last snapshot (when not on the grid), flushes, and run.json with the totals and every
  /// rank's peak memory (so call it after the last checkpoint is written, for the peak to include
  /// it); with the bed's statistics (a run that reached its end, not a signalled one)
  /// settle.json and the height map too. Collective.
  void finish(const DistributedTerrain& terrain, double run_wall_seconds, const SettleStatistics* bed = nullptr,
              const char* stop_reason = nullptr);

  const std::filesystem::path& folder() const { return folder_; }
  /// The files written, relative to the folder, for the summary.
  std::vector<std::string> file_names() const;
  /// Every rank's memory as finish found it (on the leader; empty before finish and elsewhere).
  const RunMemory& memory() const { return memory_; }

 private:
  /// The leader's files of step 0: the folder, run.json, the CSV streams.
  void start_files(const StartState& start, const DistributedTerrain& terrain, const runtime::ThreadChoice& threads,
                   const gpu::DeviceChoice& device);
  void write_probes(const DistributedTerrain& terrain);
  void snapshot(const DistributedTerrain& terrain);
  void write_run_json() const;
  void write_settle(const DistributedTerrain& terrain, double run_wall_seconds, const SettleStatistics& bed,
                    const char* stop_reason);

  std::filesystem::path folder_;
  const TerrainConfig& config_;
  bool writes_ = true;  ///< the terrain leader
  std::optional<ProbeCsvWriter> probes_;
  std::optional<StepStatsCsvWriter> stats_;
  std::optional<ParticleSeries> snapshots_;
  bool final_snapshot_ = false;
  bool has_height_map_ = false;
  std::optional<std::uint64_t> last_snapshot_step_;
  std::uint64_t startup_rss_bytes_ = 0;
  RunMemory memory_;
  nlohmann::ordered_json run_json_;
};

}  // namespace trackcosim::terrain
