#include "terrain_node/settle_command.h"

#include <omp.h>

#include <chrono>
#include <cstdio>
#include <iostream>

#include "cosim/progress_meter.h"
#include "cosim/terrain_config.h"
#include "gpu/dynamics/rigid_body_system.h"
#include "terrain_node/run_folder.h"

namespace trackcosim::terrain {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

const char* method_name(gpu::SolverMethod m) { return m == gpu::SolverMethod::Jacobi ? "jacobi" : "apgd"; }

void print_plan(const cosim::TerrainConfig& config, const RunFolder& folder) {
  const cosim::TerrainScene& s = config.scene;
  std::printf("config     %s\n", config.source.c_str());
  std::printf("scene      %zu bodies, %zu spheres, %zu walls\n", config.bodies.size(),
              config.bodies.sphere_radius.size(), config.bodies.planes.size());
  for (const cosim::GidRange& r : config.gid_ranges)
    if (r.count > 0)
      std::printf("  gids %llu..%llu  %s\n", static_cast<unsigned long long>(r.first),
                  static_cast<unsigned long long>(r.first + r.count - 1), r.what.c_str());
  std::printf("run        %llu steps of %g s to t = %g s, %s, at most %u iterations, OpenMP threads %d\n",
              static_cast<unsigned long long>(config.step_count()), s.step.step_size,
              double(config.step_count()) * s.step.step_size, method_name(s.step.solver.method),
              s.step.solver.max_iterations, omp_get_max_threads());
  std::printf("output     %s\n", folder.folder().string().c_str());
  std::fflush(stdout);
}

void print_summary(const gpu::RigidBodySystem& system, const RunFolder& folder, double wall_seconds) {
  const gpu::StepStats& last = system.last_stats();
  const auto steps = static_cast<unsigned long long>(system.step_count());
  std::printf("done       %llu steps in %.3f s (%.1f steps/s), t = %g s\n", steps, wall_seconds,
              wall_seconds > 0 ? double(steps) / wall_seconds : 0.0, system.time());
  std::printf("last step  %llu contacts, %u iterations, residual %.3g, kinetic energy %.6g J, "
              "max penetration %.3g m\n",
              static_cast<unsigned long long>(last.contacts), last.iterations, last.residual, last.kinetic_energy,
              last.max_penetration);
  const char* label = "wrote";
  for (const std::string& name : folder.file_names()) {
    std::printf("%-10s %s\n", label, (folder.folder() / name).string().c_str());
    label = "";
  }
  std::printf("settle bodies=%zu steps=%llu contacts=%llu seconds=%.6f\n", system.body_count(), steps,
              static_cast<unsigned long long>(last.contacts), wall_seconds);
}

}  // namespace

std::filesystem::path settle_output_folder(const SettleOptions& options) {
  return options.out_dir.empty() ? std::filesystem::path("output") / options.config.stem() : options.out_dir;
}

void run_settle_command(const SettleOptions& options) {
  const cosim::TerrainConfig config = cosim::load_terrain_config(options.config);
  if (options.threads > 0) omp_set_num_threads(options.threads);
  gpu::RigidBodySystem system(config.bodies, config.scene.step);
  RunFolder folder(settle_output_folder(options), config, system, omp_get_max_threads());
  print_plan(config, folder);

  const std::uint64_t steps = config.step_count();
  cosim::ProgressMeter progress(std::cout, config.scene.output.progress_interval, cosim::stdout_is_terminal());
  const Clock::time_point start = Clock::now();
  for (std::uint64_t k = 0; k < steps; ++k) {
    const Clock::time_point step_start = Clock::now();
    system.step();
    folder.after_step(system, seconds_since(step_start));
    progress.update({system.time(), config.scene.end_time, system.step_count(), system.last_stats().contacts});
  }
  progress.finish();
  const double wall_seconds = seconds_since(start);
  folder.finish(system, wall_seconds);
  print_summary(system, folder, wall_seconds);
}

}  // namespace trackcosim::terrain
