#include "terrain_node/coupling/coupling_session.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "comm/broadcast.h"
#include "comm/deadline.h"
#include "io/csv_stream.h"
#include "io/number_text.h"
#include "cosim/shoe_exchange.h"
#include "terrain_node/checkpoint/checkpoint_allowance.h"
#include "terrain_node/coupling/cosim_snapshots.h"
#include "terrain_node/coupling/shoe_proxies.h"
#include "terrain_node/coupling/rank_load_log.h"
#include "terrain_node/coupling/solver_log.h"
#include "terrain_node/distributed/body_loads.h"

namespace trackcosim::terrain {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

/// What the leader, having heard from the vehicle, tells every terrain rank once per coupling
/// step. The step's shoe states travel with it (comm::broadcast_command), so that a refusal or a
/// failure on the leader becomes an error everywhere and no rank waits for a step that will not come.
enum class CommandKind : std::int32_t {
  Finish,      ///< the vehicle finished: the coupling ends
  Step,        ///< run the sub-steps with the shoe states of `time`
  Checkpoint,  ///< the vehicle checkpointed at `time`: write the terrain's and end
  Periodic,    ///< the same, but the coupling goes on: the step's states come next
  Failure,     ///< the leader failed; the reason follows as text
};

struct StepCommand {
  CommandKind kind = CommandKind::Finish;
  double time = 0;  ///< of the states, or of the vehicle's checkpoint [s]
};
static_assert(std::is_trivially_copyable_v<StepCommand> && sizeof(StepCommand) == 16);

/// The leader's failure, as every rank's (LeaderFailure).
struct SharedFailure {
  std::string reason;  ///< empty: none
  bool peer_lost = false;

  void catch_current(const std::exception& e) {
    reason = e.what();
    peer_lost = dynamic_cast<const comm::ChannelError*>(&e) != nullptr;
  }
  /// Collective; throws on every rank when the leader failed.
  void share(const comm::RankGroup& group) {
    comm::broadcast(group, reason);
    comm::broadcast(group, peer_lost);
    if (!reason.empty()) throw LeaderFailure(reason, peer_lost);
  }
};

/// After a stop signal, the vehicle has this long at least to send the frame the terrain waits
/// for (stop_grace).
constexpr double kLeastStopGraceSeconds = 2;

/// How long a live vehicle may take, once this terrain has caught a stop signal, to send the
/// frame the terrain waits for: its states (the terrain then stops at the end of the step, with
/// forces_stop) or its checkpoint frame (it was signalled too and may be writing its own
/// checkpoint). Ten times its slowest answer so far in this coupling, at least
/// kLeastStopGraceSeconds, at most cosim.timeout. A vehicle silent longer than that is not
/// answering: the terrain ends naming the signal, and writes no checkpoint of its own, so the
/// last pair of checkpoints stays a pair.
double stop_grace(double slowest_answer, double timeout) {
  return std::min(timeout, std::max(kLeastStopGraceSeconds, 10 * slowest_answer));
}

/// timing.csv, streamed (io/csv_stream.h: whole rows, flushed at least every second): a new
/// coupling starts it with the header; a resumed one keeps the rows of the steps before
/// `first_step` (a stopped run may have timed steps it did not checkpoint) and appends.
void open_timing(std::optional<io::CsvStream>& timing, const std::filesystem::path& path, bool resume,
                 std::uint64_t first_step) {
  // Per coupling step: the leader's wait for the vehicle; the sub-steps ("terrain"), which the
  // next columns partition: the leader's own time in each stage of them (terrain_step_stages.h)
  // and its wait for the slowest terrain rank at the end (imbalance), the rest being loop and
  // timer overhead; then its ghost, migration and solver messages (halo), which happen INSIDE
  // the stages (ghosts, solve, integrate) and are not added to them; and the exchange.
  std::string header = "step,t,wait,terrain";
  for (const std::string_view name : kTerrainStageNames) (header += ',') += name;
  io::open_continued(timing, path, header + ",imbalance,halo,exchange", resume, first_step);
}

/// patch.csv, a row per coupling step: a resumed coupling keeps the rows before `first_step`,
/// as open_timing does (a periodic checkpoint's run wrote rows after it), and goes on after them.
void open_patch_csv(std::ofstream& csv, const std::filesystem::path& path, bool resume, std::uint64_t first_step) {
  const std::vector<std::string> kept = resume ? io::rows_before_step(path, first_step) : std::vector<std::string>{};
  csv.open(path, std::ios::binary | std::ios::trunc);
  csv << MovingPatch::csv_header();
  for (const std::string& row : kept) csv << row << '\n';
  csv.flush();
}

}  // namespace

cosim::VehicleHello agree_on_hello(const comm::RankGroup& group, cosim::TerrainCoupler* coupler,
                                   const TerrainConfig& config, const CouplingMark* resume) {
  const double h = config.scene.step.step_size;
  cosim::TerrainExpectations expect{config.scene.cosim.coupling_step, 0, h, 0};
  if (resume) expect = {resume->coupling_step, resume->shoes, h, resume->step};
  std::string hello_text;
  SharedFailure failure;
  if (group.leader()) {
    try {
      const comm::Frame f = cosim::encode_hello(coupler->receive_hello(expect));
      hello_text.assign(f.payload.begin(), f.payload.end());
    } catch (const std::exception& e) {
      failure.catch_current(e);
    }
  }
  failure.share(group);
  comm::broadcast(group, hello_text);
  const comm::Frame hello_frame{static_cast<std::uint32_t>(cosim::MessageKind::Hello),
                                {hello_text.begin(), hello_text.end()}};
  return cosim::decode_hello(hello_frame, "the terrain leader");
}

CouplingSummary run_coupling(DistributedTerrain& terrain, const TerrainConfig& config,
                             cosim::TerrainCoupler* coupler, const std::filesystem::path* timing_csv,
                             const CouplingControl& control) {
  const bool leader = terrain.leader();
  const comm::RankGroup& group = terrain.group();
  const double h = config.scene.step.step_size;
  const CouplingMark* resume = control.resume;
  const bool can_checkpoint = !control.checkpoint.empty();
  cosim::TerrainWelcome welcome = make_welcome(terrain, config);
  welcome.checkpoint = can_checkpoint;
  const cosim::VehicleHello hello = control.hello ? *control.hello : agree_on_hello(group, coupler, config, resume);
  welcome.stiffness = hello.stiffness;  // this terrain always can: it answers what was asked
  if (leader) coupler->send_welcome(welcome);
  comm::Watchdog* const watchdog = control.watchdog;
  const auto beat = [watchdog](const char* doing, std::uint64_t number) {
    if (watchdog != nullptr) watchdog->beat(doing, number);
  };
  const std::size_t shoes = hello.shoes.size();
  const double coupling_step = hello.coupling_step;
  const auto substeps = static_cast<std::uint64_t>(std::llround(coupling_step / h));

  // A resumed terrain has its proxies from the checkpoint, with their warm starts.
  const gpu::GlobalId first_proxy =
      resume ? resume->first_proxy : body_count(config.gid_ranges);  // gids are dense from 0
  if (!resume) terrain.add_everywhere_bodies(shoe_proxies(hello, first_proxy, config.scene.material.friction));
  std::vector<gpu::GlobalId> proxies(shoes);
  std::vector<gpu::CompliantBody> springs(shoes);
  for (std::size_t i = 0; i < shoes; ++i) {
    proxies[i] = first_proxy + i;
    springs[i] = shoe_spring(proxies[i], hello.shoes[i], hello, config.scene.step, config.scene.cosim);
  }
  terrain.set_compliant_bodies(springs);
  terrain.watch_loads(proxies, hello.stiffness);

  std::optional<io::CsvStream> timing;
  if (leader && timing_csv != nullptr) open_timing(timing, *timing_csv, resume != nullptr, hello.start_step);
  SolverLog solver_log(leader && timing_csv != nullptr ? timing_csv->parent_path() / "solver.csv"
                                                      : std::filesystem::path(),
                       resume != nullptr, hello.start_step);
  RankLoadLog rank_log(leader && timing_csv != nullptr ? timing_csv->parent_path() / "ranks.csv"
                                                       : std::filesystem::path(),
                       resume != nullptr, hello.start_step);
  std::optional<MovingPatch> patch;
  std::ofstream patch_csv;
  if (const auto& settings = config.scene.cosim.moving_patch) {
    patch.emplace(*settings, terrain.largest_sphere_radius());
    if (leader && timing_csv != nullptr)
      open_patch_csv(patch_csv, timing_csv->parent_path() / "patch.csv", resume != nullptr, hello.start_step);
  }
  std::optional<CosimSnapshots> snapshots;
  if (const std::uint64_t interval = cosim_snapshot_interval(config.scene.output, config.scene.step.step_size);
      interval > 0 && !control.snapshot_folder.empty()) {
    // Coupling time 0 is the terrain's step when the coupling began (a resumed one: start_step earlier).
    const std::uint64_t coupling_start = terrain.step_count() - hello.start_step * substeps;
    snapshots.emplace(terrain, control.snapshot_folder, interval, h, coupling_start, config.scene.output.vtk_format);
  }
  // The config's `bodies` follow their load schedules on the coupling's clock (body_loads.h).
  const BodyLoadSchedule body_loads(config);
  std::vector<Vec3> shoe_positions(shoes);
  CouplingSummary summary;
  summary.shoes = shoes;
  summary.coupling_steps = hello.start_step;
  // The slowest terrain step of this coupling so far (its first not counted: it pays for the
  // start) and the bodies a checkpoint writes: the checkpoint's allowance.
  double slowest_step = 0;
  const std::uint64_t checkpoint_bodies = can_checkpoint ? terrain.dynamic_totals().bodies : 0;
  // Written by every rank (collective), the same mark on the leader, who writes the file. A large
  // bed's checkpoint may take minutes, but a peer lost inside the collective write must still end
  // the job: it is watched, with its allowance beyond the limit.
  auto checkpoint = [&](std::uint64_t step, double vehicle_time) {
    if (watchdog != nullptr)
      watchdog->beat("terrain step", terrain.step_count(), checkpoint_allowance(slowest_step, 0, checkpoint_bodies));
    write_coupling_checkpoint(terrain, {step, vehicle_time, coupling_step, shoes, first_proxy}, control.checkpoint,
                              control.record);
    // A resume keeps the rows before the checkpoint's step from the files on disk: every row
    // written so far must be there before the vehicle hears of the checkpoint (the streams
    // otherwise flush once a second, and a job killed just after it lost up to a second of rows).
    if (timing) timing->flush();
    solver_log.flush();
    rank_log.flush();
    beat("the checkpoint of coupling step", step);
  };
  bool stop_asked = false;  // forces_stop sent: the vehicle's checkpoint frame is on its way
  double slowest_answer = 0;  // the leader's longest wait for the vehicle's frame (stop_grace)
  const Clock::time_point start = Clock::now();
  StepCommand command;
  std::vector<cosim::ShoeState> states;  // the step's, the leader's on every rank
  for (;;) {
    Clock::time_point t0 = Clock::now();
    SharedFailure failure;
    if (leader) {
      double time = 0;
      try {
        std::optional<std::vector<cosim::ShoeState>> received;
        {
          // Once forces_stop is sent the vehicle's checkpoint frame is awaited in full.
          std::optional<comm::StopEndsWaits> stops;
          if (control.stop != nullptr && !stop_asked)
            stops.emplace(stop_grace(slowest_answer, config.scene.cosim.timeout));
          received = coupler->receive_states(time);
        }
        const auto& request = coupler->checkpoint_request();
        command.kind = received  ? CommandKind::Step
                       : !request ? CommandKind::Finish
                       : request->keep_going ? CommandKind::Periodic
                                             : CommandKind::Checkpoint;
        command.time = request ? request->time : time;
        states = received ? std::move(*received) : std::vector<cosim::ShoeState>{};
        if (request && !can_checkpoint)
          throw cosim::ProtocolError("this terrain writes no checkpoints");
      } catch (const std::exception& e) {
        command.kind = CommandKind::Failure;
        states.clear();
        failure.catch_current(e);
      }
    }
    const double wait = leader ? since(t0) : 0;
    slowest_answer = std::max(slowest_answer, wait);
    t0 = Clock::now();
    comm::broadcast_command(group, command, states);
    beat("the command of coupling step", summary.coupling_steps);
    if (command.kind == CommandKind::Failure) failure.share(group);
    if (command.kind == CommandKind::Finish) break;
    if (command.kind == CommandKind::Periodic) {  // the same file as a stop's, replaced atomically
      checkpoint(summary.coupling_steps, command.time);
      continue;
    }
    if (command.kind == CommandKind::Checkpoint) {
      checkpoint(summary.coupling_steps, command.time);
      summary.stopped = true;
      if (leader) summary.stop_reason = coupler->checkpoint_request()->reason;
      break;
    }
    for (std::size_t i = 0; i < shoes; ++i) terrain.set_kinematic_state(body_state(proxies[i], states[i]));
    double exchange = since(t0);
    if (patch) {  // once per coupling step, from the states every rank just received
      for (std::size_t i = 0; i < shoes; ++i)
        shoe_positions[i] = {states[i].position[0], states[i].position[1], states[i].position[2]};
      patch->follow(terrain, shoe_positions, summary.coupling_steps, command.time, patch_csv);
      patch_csv.flush();  // one whole line at a time: a killed run leaves no partial line
    }
    t0 = Clock::now();
    StageSeconds stages{};
    double halo = 0;
    for (std::uint64_t s = 0; s < substeps; ++s) {
      if (snapshots) {  // timed apart: writing a frame is not the terrain's computing
        const Clock::time_point write = Clock::now();
        snapshots->on_grid(terrain);
        summary.snapshot_seconds += since(write);
        t0 += Clock::now() - write;
      }
      if (!body_loads.empty()) body_loads.apply(terrain, command.time + static_cast<double>(s) * h, h);
      const Clock::time_point step_start = Clock::now();
      terrain.step();
      const double step_seconds = since(step_start);
      if (summary.coupling_steps > hello.start_step || s > 0) slowest_step = std::max(slowest_step, step_seconds);
      beat("terrain step", terrain.step_count());
      if (leader) coupler->keep_alive();
      solver_log.substep(terrain);
      rank_log.substep(terrain, step_seconds);
      for (std::size_t k = 0; k < stages.size(); ++k) stages[k] += terrain.stage_seconds()[k];
      halo += terrain.exchange_stats().seconds + terrain.exchange_stats().solver_seconds;
    }
    // Waiting here for the slowest terrain rank is load imbalance of the sub-steps, not coupling
    // exchange: it is timed apart (imbalance). The same collective tells every rank whether any
    // of them caught a stop signal.
    const Clock::time_point barrier = Clock::now();
    int signal = 0;
    if (control.stop != nullptr) signal = control.stop->caught_anywhere(group);
    else group.barrier();
    if (signal != 0) summary.signal = signal;
    const double imbalance = since(barrier);
    const double compute = since(t0);
    solver_log.record(terrain, summary.coupling_steps, command.time);  // collective, outside the timed work
    rank_log.record(terrain, summary.coupling_steps);                   // collective too
    if (signal != 0 && !hello.checkpoint) {
      // A vehicle that cannot checkpoint (an external client without the capability) is never
      // sent forces_stop: the terrain ends alone, with its checkpoint of t_{k+1}, and says why.
      checkpoint(summary.coupling_steps + 1, command.time + coupling_step);
      summary.stopped = true;
      summary.stop_reason = std::string("SIG") + comm::signal_name(signal) + " on the terrain";
      if (leader)
        coupler->abort("the terrain stopped on SIG" + std::string(comm::signal_name(signal)) + " after coupling step " +
                       std::to_string(summary.coupling_steps) + " (its forces were not sent); its checkpoint of step " +
                       std::to_string(summary.coupling_steps + 1) + " is " + control.checkpoint.string());
      ++summary.coupling_steps;
      break;
    }
    t0 = Clock::now();
    const std::vector<std::array<double, 6>> loads = terrain.take_loads();
    const std::vector<cosim::ShoeStiffness> stiffness =
        hello.stiffness ? shoe_stiffness(terrain.take_contact_geometry(), springs, substeps)
                        : std::vector<cosim::ShoeStiffness>{};
    if (leader) {
      std::vector<cosim::ShoeForce> forces(shoes);
      for (std::size_t i = 0; i < shoes; ++i)
        for (int c = 0; c < 3; ++c) {
          forces[i].force[c] = loads[i][static_cast<std::size_t>(c)] / coupling_step;
          forces[i].torque[c] = loads[i][static_cast<std::size_t>(c) + 3] / coupling_step;
        }
      coupler->send_forces(forces, signal != 0 && !stop_asked, hello.stiffness ? &stiffness : nullptr);
    }
    stop_asked = stop_asked || signal != 0;
    exchange += since(t0);
    if (timing) {
      std::string row;
      io::append_number(row, summary.coupling_steps);
      const auto field = [&row](double value) { io::append_number(row += ',', value); };
      for (const double value : {command.time, wait, compute}) field(value);
      for (const double seconds : stages) field(seconds);
      for (const double value : {imbalance, halo, exchange}) field(value);
      timing->write_row(row);
    }
    ++summary.coupling_steps;
    summary.wait_seconds += wait;
    summary.terrain_seconds += compute;
    summary.exchange_seconds += exchange;
  }
  if (snapshots) {
    const Clock::time_point write = Clock::now();
    snapshots->last(terrain);
    summary.snapshot_seconds += since(write);
    summary.snapshot_frames = snapshots->frames();
  }
  summary.wall_seconds = since(start);
  if (patch) summary.patch = patch->summary();
  return summary;
}

}  // namespace trackcosim::terrain
