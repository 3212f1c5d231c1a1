#include "terrain_node/coupling/cosim_command.h"

#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "comm/deadline.h"
#include "comm/mpi_channel.h"
#include "comm/mpi_session.h"
#include "comm/role_split.h"
#include "comm/stop_signal.h"
#include "comm/tcp_channel.h"
#include "comm/watchdog.h"
#include "runtime/mpi_wait_environment.h"
#include "io/output_file.h"
#include "runtime/progress_meter.h"
#include "io/run_json.h"
#include "terrain_node/checkpoint/checkpoint_allowance.h"
#include "terrain_node/checkpoint/start_state.h"
#include "terrain_node/config/cosim_unused_settings.h"
#include "terrain_node/config/terrain_config.h"
#include "terrain_node/coupling/bed_compaction.h"
#include "terrain_node/coupling/cosim_snapshots.h"
#include "terrain_node/coupling/coupling_session.h"
#include "terrain_node/coupling/solve_pulse.h"
#include "terrain_node/distributed/rank_device.h"
#include "terrain_node/distributed/rank_threads.h"
#include "terrain_node/output/bed_surface.h"

namespace trackcosim::terrain {
namespace {

/// How much longer than cosim.timeout a rank waits on its peers before its watchdog ends the
/// job: the leader's channel deadline, which names the peer, comes first.
constexpr double kWatchdogGraceSeconds = 5;

/// The settled bed, before any shoe proxy joins it: the checkpoint a later run of the same terrain
/// starts from (--from-checkpoint). Collective; watched with a checkpoint's allowance (a large
/// bed writes for seconds).
void save_settled_bed(const DistributedTerrain& terrain, const std::filesystem::path& file, const std::string& record,
                      comm::Watchdog& watchdog) {
  watchdog.beat("saving the settled bed", comm::Watchdog::kNoNumber,
                checkpoint_allowance(0, 0, terrain.dynamic_totals().bodies));
  if (terrain.leader() && file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  terrain.group().barrier();
  terrain.write_checkpoint(file, record);
  watchdog.beat("the settled bed", comm::Watchdog::kNoNumber);
  if (terrain.leader()) {
    std::printf("bed        settled bed saved to %s (t = %g s, step %llu)\n", file.string().c_str(),
                static_cast<double>(terrain.time()), static_cast<unsigned long long>(terrain.step_count()));
    std::fflush(stdout);
  }
}

}  // namespace

void run_cosim_command(const CosimOptions& options) {
  runtime::prepare_mpi_waits();
  const comm::RoleScope scope(comm::Role::Terrain);
  const comm::RoleLayout& roles = scope.layout();
  StartState start = load_start_state(roles.role_group(), options.config, options.restart, options.from_checkpoint);
  const TerrainConfig& config = start.config;
  const CosimSettings& c = config.scene.cosim;
  refuse_settings_unused_by_cosim(config);
  const runtime::ThreadChoice threads = set_rank_threads(options.threads, roles.role_group());
  const gpu::DeviceChoice device = set_rank_device(roles.role_group());
  const std::filesystem::path folder =
      options.out_dir.empty() ? std::filesystem::path("output") / options.config.stem() : options.out_dir;
  const bool leader = roles.role_rank == 0;
  if (leader) io::create_output_folder(folder);

  // Installed before the channel and the settling: a signal then is kept for the first coupling
  // step (or ends the wait for the vehicle, below), instead of killing the run (SIGUSR1's and
  // SIGTERM's default action).
  const comm::StopSignal stop;
  // The channel first: over MPI its creation is collective with the vehicle's ranks; over TCP
  // the vehicle may connect (and wait) while the bed settles.
  std::unique_ptr<comm::Channel> mpi_channel;
  std::unique_ptr<comm::TcpListener> listener;
  if (c.transport == "mpi") {
    mpi_channel = std::make_unique<comm::MpiChannel>(roles);
  } else if (leader) {
    listener = std::make_unique<comm::TcpListener>(c.host, static_cast<int>(c.port));
    std::printf("cosim      listening on %s:%d for the vehicle\n", c.host.c_str(), listener->port());
    std::fflush(stdout);
  }

  // Every rank's last deadline: a collective waiting on a stopped rank ends the job, a little
  // after the leader's channel deadline would have named the vehicle.
  comm::Watchdog watchdog("terrain_node rank " + std::to_string(roles.role_rank), c.timeout + kWatchdogGraceSeconds);
  std::optional<CouplingMark> resume;
  if (!options.restart.empty()) resume = read_coupling_mark(*start.checkpoint, options.restart);

  // The vehicle's hello before the bed is built: it asks for working frames while it waits.
  // Meanwhile the other ranks wait for the leader, who waits (each within cosim.timeout) for the
  // vehicle to connect and then for its hello. Nothing has begun yet, so a stop signal ends
  // these waits at once (naming the signal, not the vehicle) instead of after cosim.timeout.
  watchdog.beat("opening the channel", comm::Watchdog::kNoNumber, c.timeout);
  std::optional<comm::StopEndsWaits> handshake_stops(std::in_place, 0.0);
  std::unique_ptr<cosim::TerrainCoupler> coupler;
  if (leader) {
    std::unique_ptr<comm::Channel> channel = mpi_channel ? std::move(mpi_channel) : listener->accept(c.timeout);
    std::printf("cosim      vehicle: %s\n", channel->peer().c_str());
    std::fflush(stdout);
    coupler = std::make_unique<cosim::TerrainCoupler>(std::move(channel), c.timeout);
  }
  const cosim::VehicleHello hello =
      agree_on_hello(roles.role_group(), coupler.get(), config, resume ? &*resume : nullptr);
  handshake_stops.reset();
  watchdog.beat("the vehicle's hello", comm::Watchdog::kNoNumber);
  if (leader) coupler->keep_alive();

  DistributedTerrain terrain(config, roles.role_group(), options.layout,
                             start.checkpoint ? &*start.checkpoint : nullptr);
  start.checkpoint.reset();
  watchdog.beat("building the bed", comm::Watchdog::kNoNumber);
  if (resume && leader)
    std::printf("restart    coupling step %llu (terrain step %llu, t = %g s) on %d terrain ranks, layout %s\n",
                static_cast<unsigned long long>(resume->step), static_cast<unsigned long long>(terrain.step_count()),
                static_cast<double>(terrain.time()), terrain.ranks(), terrain.layout_name().c_str());
  // A resumed coupling or a saved bed (--from-checkpoint) does not settle again.
  const bool settled = resume || !options.from_checkpoint.empty();
  const real settle_step = c.settle_step > 0 ? c.settle_step : config.scene.step.step_size;
  const auto settle_steps = settled ? 0 : static_cast<std::uint64_t>(c.settle_time / settle_step + 0.5);
  if (leader && !options.from_checkpoint.empty())
    std::printf("start      on the bed of %s (--from-checkpoint): cosim.settle_time skipped\n",
                options.from_checkpoint.string().c_str());
  if (leader && !settled)
    std::printf("settle     %llu steps of %g s (%g s) on %d terrain ranks, layout %s\n",
                static_cast<unsigned long long>(settle_steps), static_cast<double>(settle_step), c.settle_time,
                terrain.ranks(), terrain.layout_name().c_str());
  // Settling a large bed takes minutes: the same progress line as a standalone run.
  runtime::ProgressMeter progress(std::cout, leader ? config.scene.output.progress_interval : 0,
                                runtime::stdout_is_terminal());
  // The bed's preparation: settling, then the compaction if asked for.
  const bool prepares = !settled && (settle_steps > 0 || c.compaction);
  std::optional<SolvePulse> pulse;
  if (prepares) {
    pulse.emplace(terrain, &watchdog, coupler.get(), "a solver iteration of settling step");
    terrain.set_step_size(settle_step);
  }
  for (std::uint64_t k = 0; k < settle_steps; ++k) {
    terrain.step();
    watchdog.beat("settling step", k + 1);
    if (leader) coupler->keep_alive();
    progress.update({terrain.time(), c.settle_time, k + 1, terrain.local_stats().contacts, ""});
  }
  progress.finish();
  // Compacted at the settling step, as part of the bed's preparation (and of the stored bed).
  std::optional<CompactionOutcome> compaction;
  if (prepares && c.compaction)
    compaction = compact_bed(terrain, config, *c.compaction, [&] {
      watchdog.beat("compaction step", terrain.step_count());
      if (leader) coupler->keep_alive();
    });
  pulse.reset();
  terrain.set_step_size(config.scene.step.step_size);  // the vehicle drives at the config's step
  if (prepares && !options.save_bed.empty()) save_settled_bed(terrain, options.save_bed, checkpoint_record(start), watchdog);
  // The undisturbed surface, against which the launcher measures the tracks' sinkage
  // (tools/mobility/sinkage.py): once, before the vehicle's first step. A resumed run keeps the file of
  // the run it continues.
  if (!resume) write_bed_surface(terrain, config, folder / "surface_start.csv");

  const std::filesystem::path timing = folder / "timing.csv";
  const CouplingControl control{&stop,     folder / "checkpoint.bin", resume ? &*resume : nullptr,
                                &hello,    &watchdog,                 checkpoint_record(start),
                                folder};
  const CouplingSummary s = run_coupling(terrain, config, coupler.get(), leader ? &timing : nullptr, control);
  if (!leader) return;
  // The signal this terrain caught, even when the vehicle's checkpoint frame came first (a
  // launcher forwards one signal to every rank, and the vehicle may act on it sooner).
  const int caught = s.signal ? s.signal : stop.caught();
  if (s.stopped)
    std::printf("terrain stopped step=%llu signal=%s checkpoint=%s (%s)\n",
                static_cast<unsigned long long>(s.coupling_steps), caught ? comm::signal_name(caught) : "none",
                control.checkpoint.string().c_str(), s.stop_reason.c_str());
  nlohmann::ordered_json run = io::run_json_header("terrain_node --cosim", threads);
  run["device"] = device.description;
  run["config_file"] = config.source;
  run["ranks"] = terrain.ranks();
  run["layout"] = terrain.layout_name();
  run["settle_steps"] = settle_steps;
  if (compaction)
    run["compaction"] = {{"taps", compaction->taps},
                         {"steps", compaction->steps},
                         {"packing_settled", compaction->packing_settled},
                         {"packing", compaction->packing}};
  if (!options.from_checkpoint.empty()) run["from_checkpoint"] = options.from_checkpoint.string();
  run["coupling_steps"] = s.coupling_steps;
  if (resume) run["resumed_from"] = {{"checkpoint", options.restart.string()}, {"coupling_step", resume->step}};
  if (s.stopped) run["stopped"] = {{"coupling_step", s.coupling_steps}, {"reason", s.stop_reason}};
  run["shoes"] = s.shoes;
  run["wall_seconds"] = s.wall_seconds;
  run["device_copies"] = {{"to_device_bytes", s.device_copies.to_device},
                          {"to_host_bytes", s.device_copies.to_host},
                          {"copies", s.device_copies.copies}};
  if (s.patch) {
    const PatchSummary& p = *s.patch;
    run["moving_patch"] = {{"particles", p.particles},     {"active_mean", p.active_mean},
                           {"fixed_mean", p.fixed_mean},   {"stored_mean", p.stored_mean},
                           {"active_max", p.active_max},   {"reactivated", p.reactivated},
                           {"cut_moves", p.cut_moves},     {"seconds", p.seconds}};
  }
  if (const std::uint64_t interval = cosim_snapshot_interval(config.scene.output, config.scene.step.step_size);
      interval > 0)
    run["snapshots"] = {{"file", "particles.pvd"},
                        {"interval_steps", interval},
                        {"frames", s.snapshot_frames},
                        {"seconds", s.snapshot_seconds}};
  run["config"] = resolved_config_json(config.scene);
  io::write_json_file(folder / "run.json", run);
  const double wall = s.wall_seconds > 0 ? s.wall_seconds : 1;
  std::printf("terrain cosim steps=%llu shoes=%zu ranks=%d wall_s=%.3f wait_share=%.4f exchange_share=%.4f\n",
              static_cast<unsigned long long>(s.coupling_steps), s.shoes, terrain.ranks(), s.wall_seconds,
              s.wait_seconds / wall, s.exchange_seconds / wall);
  // The leader's copies per coupling step: what a GPU run moves across the bus (issue
  // "The co-simulation on a GPU node"); the other ranks move about as much.
  const std::uint64_t run_steps = s.coupling_steps - hello.start_step;  // this run's, a resumed one's too
  const double steps_here = run_steps > 0 ? static_cast<double>(run_steps) : 1;
  std::printf("terrain device %s to_device_per_step=%.0f to_host_per_step=%.0f copies_per_step=%.1f\n",
              device.index >= 0 ? "cuda" : "cpu", static_cast<double>(s.device_copies.to_device) / steps_here,
              static_cast<double>(s.device_copies.to_host) / steps_here, static_cast<double>(s.device_copies.copies) / steps_here);
  if (s.patch) {
    const PatchSummary& p = *s.patch;
    const double total = p.particles > 0 ? static_cast<double>(p.particles) : 1;
    std::printf("terrain patch particles=%llu active_mean=%.0f active_fraction=%.4f fixed_mean=%.0f stored_mean=%.0f "
                "reactivated=%llu cut_moves=%llu patch_share=%.4f\n",
                static_cast<unsigned long long>(p.particles), p.active_mean, p.active_mean / total, p.fixed_mean,
                p.stored_mean, static_cast<unsigned long long>(p.reactivated),
                static_cast<unsigned long long>(p.cut_moves), p.seconds / wall);
  }
}

}  // namespace trackcosim::terrain
