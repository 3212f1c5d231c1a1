#include "terrain_node/standalone/settle_command.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <cstdio>
#include <iostream>

#include "comm/mpi_session.h"
#include "comm/role_split.h"
#include "comm/stop_signal.h"
#include "runtime/memory_usage.h"
#include "runtime/mpi_wait_environment.h"
#include "runtime/progress_meter.h"
#include "terrain_node/checkpoint/start_state.h"
#include "terrain_node/checkpoint/terrain_checkpoint.h"
#include "terrain_node/config/terrain_config.h"
#include "terrain_node/distributed/distributed_terrain.h"
#include "terrain_node/distributed/rank_device.h"
#include "terrain_node/distributed/rank_threads.h"
#include "terrain_node/distributed/body_loads.h"
#include "terrain_node/standalone/run_folder.h"
#include "terrain_node/standalone/settle_criterion.h"
#include "terrain_node/output/settle_statistics.h"
#include "terrain_node/standalone/step_watch.h"

namespace trackcosim::terrain {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

const char* method_name(gpu::SolverMethod m) { return m == gpu::SolverMethod::Jacobi ? "jacobi" : "apgd"; }

void print_plan(const StartState& start, const RunFolder& folder, const DistributedTerrain& terrain,
                const std::filesystem::path& from_checkpoint) {
  const TerrainConfig& config = start.config;
  const TerrainScene& s = config.scene;
  std::printf("config     %s\n", config.source.c_str());
  // The bed that runs: a checkpoint's replaces what the config's generators would make.
  std::printf("scene      %llu bodies, %llu spheres, %zu walls\n", static_cast<unsigned long long>(start.bodies),
              static_cast<unsigned long long>(start.spheres), config.bodies.planes.size());
  for (const GidRange& r : config.gid_ranges)
    if (r.count > 0)
      std::printf("  gids %llu..%llu  %s\n", static_cast<unsigned long long>(r.first),
                  static_cast<unsigned long long>(r.first + r.count - 1), r.what.c_str());
  std::printf("run        %llu steps of %g s to t = %g s, %s, at most %u iterations, OpenMP threads %d\n",
              static_cast<unsigned long long>(config.step_count()), s.step.step_size,
              double(config.step_count()) * s.step.step_size, method_name(s.step.solver.method),
              s.step.solver.max_iterations, omp_get_max_threads());
  std::printf("ranks      %d, layout %s, ghost width %g m\n", terrain.ranks(), terrain.layout_name().c_str(),
              terrain.ghost_width());
  if (!from_checkpoint.empty())
    std::printf("start      t = 0 on the bed of %s (--from-checkpoint)\n", from_checkpoint.string().c_str());
  if (config.scene.settle.enabled)
    std::printf("settle     until rms speed < %g m/s (checked every %llu steps from t = %g s) or t = %g s\n",
                config.scene.settle.rms_speed, static_cast<unsigned long long>(config.scene.settle.check_interval),
                config.scene.settle.min_time, double(config.step_count()) * s.step.step_size);
  if (terrain.step_count() > 0)
    std::printf("restart    from step %llu, t = %g s\n", static_cast<unsigned long long>(terrain.step_count()),
                terrain.time());
  std::printf("output     %s\n", folder.folder().string().c_str());
  std::fflush(stdout);
}

void print_summary(const DistributedTerrain& terrain, const gpu::StepStats& last, const TerrainConfig& config,
                   const RunFolder& folder, double wall_seconds, std::uint64_t steps_run, StopReason reason,
                   const SettleStatistics& bed) {
  const auto steps = static_cast<unsigned long long>(terrain.step_count());
  std::printf("done       %llu steps in %.3f s (%.1f steps/s), t = %g s\n", static_cast<unsigned long long>(steps_run),
              wall_seconds, wall_seconds > 0 ? double(steps_run) / wall_seconds : 0.0, terrain.time());
  std::printf("last step  %llu contacts, %u iterations, residual %.3g, kinetic energy %.6g J, "
              "max penetration %.3g m\n",
              static_cast<unsigned long long>(last.contacts), last.iterations, last.residual, last.kinetic_energy,
              last.max_penetration);
  if (reason == StopReason::Threshold)
    std::printf("settled    rms speed %.4g m/s < %g m/s at step %llu (t = %g s)\n", bed.rms_speed,
                config.scene.settle.rms_speed, steps, terrain.time());
  if (reason == StopReason::TimeCap)
    std::printf("time cap   reached at t = %g s with rms speed %.4g m/s >= %g m/s: not settled\n", terrain.time(),
                bed.rms_speed, config.scene.settle.rms_speed);
  print_settle_statistics(bed);
  const char* label = "wrote";
  for (const std::string& name : folder.file_names()) {
    std::printf("%-10s %s\n", label, (folder.folder() / name).string().c_str());
    label = "";
  }
  if (config.scene.settle.enabled)
    std::printf("%-10s %s (the settled bed: --from-checkpoint)\n", "", (folder.folder() / "checkpoint.bin").string().c_str());
  std::printf("%s\n", run_memory_line(folder.memory()).c_str());
  // n/a, not nan, when the bed had no sample box: the reason is on the `packing` line above.
  char packing[32] = "n/a";
  if (!std::isnan(bed.packing_fraction)) std::snprintf(packing, sizeof packing, "%.6g", bed.packing_fraction);
  std::printf("settle bodies=%llu steps=%llu contacts=%llu seconds=%.6f ranks=%d stop=%s rms_speed=%.6g depth_mean=%.6g "
              "packing=%s contacts_per_particle=%.6g\n",
              static_cast<unsigned long long>(body_count(config.gid_ranges)), steps, static_cast<unsigned long long>(last.contacts),
              wall_seconds, terrain.ranks(), stop_reason_name(reason), bed.rms_speed, bed.depth_mean, packing,
              bed.contacts_per_particle);
}

/// `record`: checkpoint_record, which a --restart of this checkpoint checks its config against.
void write_checkpoint_file(const DistributedTerrain& terrain, const std::filesystem::path& folder,
                           const std::string& record) {
  terrain.write_checkpoint(folder / "checkpoint.bin", record);
}

}  // namespace

std::filesystem::path settle_output_folder(const SettleOptions& options) {
  return options.out_dir.empty() ? std::filesystem::path("output") / options.config.stem() : options.out_dir;
}

void run_settle_command(const SettleOptions& options) {
  runtime::prepare_mpi_waits();
  const comm::RoleScope scope(comm::Role::Terrain);
  const comm::RoleLayout& roles = scope.layout();
  // What a rank costs before it holds any terrain, read before a checkpoint to start from is
  // read too: the constant that run.json's peak memory is to be read against.
  const std::uint64_t startup_rss = runtime::read_memory_usage().rss_bytes;

  StartState start = load_start_state(roles.role_group(), options.config, options.restart, options.from_checkpoint);
  const TerrainConfig& config = start.config;
  const runtime::ThreadChoice threads = set_rank_threads(options.threads, roles.role_group());
  const gpu::DeviceChoice device = set_rank_device(roles.role_group());
  DistributedTerrain terrain(config, roles.role_group(), options.layout,
                             start.checkpoint ? &*start.checkpoint : nullptr);
  start.checkpoint.reset();
  const std::string record = checkpoint_record(start);
  RunFolder folder(settle_output_folder(options), start, terrain, threads, device, startup_rss);
  if (terrain.leader()) print_plan(start, folder, terrain, options.from_checkpoint);

  const std::uint64_t steps = config.step_count();
  const std::uint64_t checkpoint_interval = config.scene.output.checkpoint_interval;
  runtime::ProgressMeter progress(std::cout, terrain.leader() ? config.scene.output.progress_interval : 0,
                                runtime::stdout_is_terminal());
  const Clock::time_point start_time = Clock::now();
  const std::uint64_t first = terrain.step_count();
  // Global statistics cost three reductions: only when stats.csv wants them or at the end.
  gpu::StepStats stats;
  // Walltime safety: a batch system's warning signal ends the run at a step boundary with a
  // checkpoint that a resubmitted job continues from (--restart; jobs/README.md).
  const comm::StopSignal stop;
  const SettleCriterion criterion(config.scene.settle, config.scene.settle.enabled ? terrain.dynamic_totals().mass : 0);
  StopReason reason = criterion.at_last_step();
  bool global = false;  // whether `stats` holds the global numbers of the last step
  StepWatch watch(roles.role_rank, options.peer_timeout);
  const BodyLoadSchedule loads(config);  // the `bodies` entries' forces and torques
  // A checkpoint may take minutes: watched with its own allowance (step_watch.h), until every
  // rank has written its part.
  const std::uint64_t bodies = terrain.dynamic_totals().bodies;
  auto checkpoint = [&] {
    const StepWatch::Checkpointing checkpointing(watch, bodies);
    write_checkpoint_file(terrain, folder.folder(), record);
    terrain.group().barrier();
  };
  for (std::uint64_t k = first; k < steps; ++k) {
    if (const int signal = stop.caught_anywhere(terrain.group())) {
      checkpoint();
      progress.finish();
      folder.finish(terrain, seconds_since(start_time));
      if (terrain.leader()) {
        std::printf("stopped    by SIG%s at step %llu (t = %g s): %s written; continue with --restart %s\n",
                    comm::signal_name(signal), static_cast<unsigned long long>(terrain.step_count()),
                    static_cast<double>(terrain.time()), (folder.folder() / "checkpoint.bin").string().c_str(),
                    (folder.folder() / "checkpoint.bin").string().c_str());
        std::printf("%s\n", run_memory_line(folder.memory()).c_str());
      }
      return;
    }
    const Clock::time_point step_start = Clock::now();
    loads.apply(terrain, terrain.time(), config.scene.step.step_size);
    terrain.step();
    const double step_seconds = seconds_since(step_start);
    const std::uint64_t done = terrain.step_count();
    const bool check = criterion.due(done, terrain.time());
    global = config.scene.output.stats || check;
    stats = global ? terrain.global_stats() : terrain.local_stats();
    folder.after_step(terrain, stats, step_seconds);
    if ((checkpoint_interval > 0 && done % checkpoint_interval == 0) || done == options.checkpoint_at)
      checkpoint();
    progress.update({terrain.time(), double(steps) * config.scene.step.step_size, done, stats.contacts, ""});
    watch.stepped(done, step_seconds);
    if (check && criterion.settled(stats.kinetic_energy)) {
      reason = StopReason::Threshold;
      break;
    }
  }
  watch.ending();
  if (!global && terrain.step_count() > first) stats = terrain.global_stats();
  progress.finish();
  const SettleStatistics bed = measure_settled_bed(terrain, config);
  // The settled bed is what later runs start from (--from-checkpoint).
  if (config.scene.settle.enabled) checkpoint();
  const double wall_seconds = seconds_since(start_time);
  folder.finish(terrain, wall_seconds, &bed, stop_reason_name(reason));
  if (terrain.leader())
    print_summary(terrain, stats, config, folder, wall_seconds, terrain.step_count() - std::min(first, steps), reason,
                  bed);
}

}  // namespace trackcosim::terrain
