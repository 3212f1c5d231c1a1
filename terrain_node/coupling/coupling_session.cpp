#include "terrain_node/coupling/coupling_session.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "comm/broadcast.h"
#include "comm/deadline.h"
#include "gpu/memory/transfer_count.h"
#include "cosim/shoe_exchange.h"
#include "terrain_node/coupling/coupling_checkpoints.h"
#include "terrain_node/coupling/cosim_snapshots.h"
#include "terrain_node/coupling/patch_follower.h"
#include "terrain_node/coupling/shoe_proxies.h"
#include "terrain_node/coupling/solve_pulse.h"
#include "terrain_node/coupling/rank_load_log.h"
#include "terrain_node/coupling/solver_log.h"
#include "terrain_node/coupling/timing_log.h"
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

/// The leader's side of receiving: the vehicle's next frame as the step's command.
class VehicleInbox {
 public:
  VehicleInbox(cosim::TerrainCoupler* coupler, const CouplingControl& control, double timeout, bool can_checkpoint)
      : coupler_(coupler), stop_(control.stop), timeout_(timeout), can_checkpoint_(can_checkpoint) {}

  /// Waits for the vehicle's next frame: its states (a Step), its finish or its checkpoint. A
  /// failure becomes a Failure command, its reason in `failure`.
  StepCommand receive(std::vector<cosim::ShoeState>& states, SharedFailure& failure) {
    const Clock::time_point start = Clock::now();
    StepCommand command;
    double time = 0;
    try {
      std::optional<std::vector<cosim::ShoeState>> received;
      {
        // Once forces_stop is sent the vehicle's checkpoint frame is awaited in full.
        std::optional<comm::StopEndsWaits> stops;
        if (stop_ != nullptr && !stop_asked_) stops.emplace(stop_grace(slowest_answer_, timeout_));
        received = coupler_->receive_states(time);
      }
      const auto& request = coupler_->checkpoint_request();
      command.kind = received  ? CommandKind::Step
                     : !request ? CommandKind::Finish
                     : request->keep_going ? CommandKind::Periodic
                                           : CommandKind::Checkpoint;
      command.time = request ? request->time : time;
      states = received ? std::move(*received) : std::vector<cosim::ShoeState>{};
      if (request && !can_checkpoint_) throw cosim::ProtocolError("this terrain writes no checkpoints");
    } catch (const std::exception& e) {
      command.kind = CommandKind::Failure;
      states.clear();
      failure.catch_current(e);
    }
    slowest_answer_ = std::max(slowest_answer_, since(start));
    return command;
  }
  /// forces_stop went with the step's forces.
  void stop_asked() { stop_asked_ = true; }
  bool stopping() const { return stop_asked_; }

 private:
  cosim::TerrainCoupler* coupler_;
  const comm::StopSignal* stop_;
  double timeout_;
  bool can_checkpoint_;
  bool stop_asked_ = false;    ///< forces_stop sent: the vehicle's checkpoint frame is on its way
  double slowest_answer_ = 0;  ///< the longest wait for the vehicle's frame (stop_grace)
};

void beat(comm::Watchdog* watchdog, const char* doing, std::uint64_t number) {
  if (watchdog != nullptr) watchdog->beat(doing, number);
}

/// The vehicle's shoes in this terrain: the hello, the proxies standing in for the shoes and
/// their contact springs.
struct CoupledShoes {
  cosim::VehicleHello hello;
  gpu::GlobalId first_proxy = 0;
  std::vector<gpu::GlobalId> proxies;
  std::vector<gpu::CompliantBody> springs;
  std::uint64_t substeps = 0;  ///< terrain steps per coupling step
};

/// Collective: the end of the handshake (the welcome) and the proxies set up for the shoes.
CoupledShoes start_coupling(DistributedTerrain& terrain, const TerrainConfig& config, cosim::TerrainCoupler* coupler,
                            const CouplingControl& control) {
  const CouplingMark* resume = control.resume;
  cosim::TerrainWelcome welcome = make_welcome(terrain, config);
  welcome.checkpoint = !control.checkpoint.empty();
  CoupledShoes c;
  c.hello = control.hello ? *control.hello : agree_on_hello(terrain.group(), coupler, config, resume);
  welcome.stiffness = c.hello.stiffness;  // this terrain always can: it answers what was asked
  if (terrain.leader()) coupler->send_welcome(welcome);
  c.substeps = static_cast<std::uint64_t>(std::llround(c.hello.coupling_step / config.scene.step.step_size));
  // A resumed terrain has its proxies from the checkpoint, with their warm starts.
  c.first_proxy = resume ? resume->first_proxy : body_count(config.gid_ranges);  // gids are dense from 0
  if (!resume) terrain.add_everywhere_bodies(shoe_proxies(c.hello, c.first_proxy, config.scene.material.friction));
  const std::size_t shoes = c.hello.shoes.size();
  c.proxies.resize(shoes);
  c.springs.resize(shoes);
  for (std::size_t i = 0; i < shoes; ++i) {
    c.proxies[i] = c.first_proxy + i;
    c.springs[i] = shoe_spring(c.proxies[i], c.hello.shoes[i], c.hello, config.scene.step, config.scene.cosim);
  }
  terrain.set_compliant_bodies(c.springs);
  terrain.watch_loads(c.proxies, c.hello.stiffness);
  return c;
}

/// Fan out: every rank moves the proxies to the step's shoe states (stage 2 of the terrain step).
void fan_out(DistributedTerrain& terrain, const CoupledShoes& shoes, const std::vector<cosim::ShoeState>& states) {
  std::vector<gpu::BodyState> proxies(states.size());
  for (std::size_t i = 0; i < states.size(); ++i) proxies[i] = body_state(shoes.proxies[i], states[i]);
  terrain.set_kinematic_states(proxies);
}

/// Advance: the terrain's sub-steps of one coupling step on this rank, the config's bodies on
/// their load schedules from t_k. Returns the seconds the observers took before the sub-steps
/// (writing frames), which are not the terrain's computing.
double advance(DistributedTerrain& terrain, const CoupledShoes& shoes, double t, double h,
               const BodyLoadSchedule& body_loads, CouplingObservers& observers, cosim::TerrainCoupler* coupler,
               comm::Watchdog* watchdog) {
  double observed = 0;
  for (std::uint64_t s = 0; s < shoes.substeps; ++s) {
    const Clock::time_point before = Clock::now();
    observers.before_substep(terrain);
    observed += since(before);
    if (!body_loads.empty()) body_loads.apply(terrain, t + static_cast<double>(s) * h, h);
    const Clock::time_point step_start = Clock::now();
    terrain.step();
    const double step_seconds = since(step_start);
    beat(watchdog, "terrain step", terrain.step_count());
    if (terrain.leader()) coupler->keep_alive();
    observers.after_substep(terrain, step_seconds);
  }
  return observed;
}

/// Reduce and send: the impulses on the proxies summed exactly over the ranks (collective); the
/// leader sends their means over the interval as the step's forces, with each shoe's stiffness
/// when the vehicle takes the loads implicitly.
void send_loads(DistributedTerrain& terrain, const CoupledShoes& shoes, cosim::TerrainCoupler* coupler,
                bool forces_stop) {
  const std::vector<std::array<double, 6>> loads = terrain.take_loads();
  const std::vector<cosim::ShoeStiffness> stiffness =
      shoes.hello.stiffness ? shoe_stiffness(terrain.take_contact_geometry(), shoes.springs, shoes.substeps)
                            : std::vector<cosim::ShoeStiffness>{};
  if (!terrain.leader()) return;
  const double coupling_step = shoes.hello.coupling_step;
  std::vector<cosim::ShoeForce> forces(loads.size());
  for (std::size_t i = 0; i < loads.size(); ++i)
    for (int c = 0; c < 3; ++c) {
      forces[i].force[c] = loads[i][static_cast<std::size_t>(c)] / coupling_step;
      forces[i].torque[c] = loads[i][static_cast<std::size_t>(c) + 3] / coupling_step;
    }
  coupler->send_forces(forces, forces_stop, shoes.hello.stiffness ? &stiffness : nullptr);
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
  const CoupledShoes shoes = start_coupling(terrain, config, coupler, control);
  const cosim::VehicleHello& hello = shoes.hello;

  // The observers, told in this order: the patch follows the shoes before a frame is taken.
  const bool resume = control.resume != nullptr;
  const bool writes = leader && timing_csv != nullptr;  // the leader writes the files beside timing.csv
  const auto beside_timing = [&](const char* name) {
    return writes ? timing_csv->parent_path() / name : std::filesystem::path();
  };
  CouplingObservers observers;
  std::optional<PatchFollower> patch;
  if (const auto& settings = config.scene.cosim.moving_patch)
    patch.emplace(*settings, terrain.largest_sphere_radius(), beside_timing("patch.csv"), resume, hello.start_step);
  std::optional<CosimSnapshots> snapshots;
  if (const std::uint64_t interval = cosim_snapshot_interval(config.scene.output, config.scene.step.step_size);
      interval > 0 && !control.snapshot_folder.empty()) {
    // Coupling time 0 is the terrain's step when the coupling began (a resumed one: start_step earlier).
    const std::uint64_t coupling_start = terrain.step_count() - hello.start_step * shoes.substeps;
    snapshots.emplace(terrain, control.snapshot_folder, interval, config.scene.step.step_size, coupling_start,
                      config.scene.output.vtk_format);
  }
  SolverLog solver_log(beside_timing("solver.csv"), resume, hello.start_step);
  RankLoadLog rank_log(beside_timing("ranks.csv"), resume, hello.start_step);
  TimingLog timing(writes ? *timing_csv : std::filesystem::path(), resume, hello.start_step);
  CouplingCheckpoints checkpoints(terrain, control.checkpoint, control.record,
                                  {0, 0, hello.coupling_step, shoes.proxies.size(), shoes.first_proxy},
                                  control.watchdog, observers);
  if (patch) observers.add(*patch);
  if (snapshots) observers.add(*snapshots);
  observers.add(solver_log);
  observers.add(rank_log);
  observers.add(timing);
  observers.add(checkpoints);

  // The config's `bodies` follow their load schedules on the coupling's clock (body_loads.h).
  const BodyLoadSchedule body_loads(config);
  VehicleInbox inbox(coupler, control, config.scene.cosim.timeout, checkpoints.enabled());
  const SolvePulse pulse(terrain, control.watchdog, leader ? coupler : nullptr, "a solver iteration of terrain step");
  CouplingSummary summary;
  summary.shoes = shoes.proxies.size();
  summary.coupling_steps = hello.start_step;
  const Clock::time_point start = Clock::now();
  const gpu::TransferBytes copied_before = gpu::transfer_bytes();
  StepCommand command;
  std::vector<cosim::ShoeState> states;  // the step's, the leader's on every rank
  for (;;) {
    // Receive: the leader hears from the vehicle and tells every rank.
    Clock::time_point t0 = Clock::now();
    SharedFailure failure;
    if (leader) command = inbox.receive(states, failure);
    CouplingStepTimes times;
    times.wait = leader ? since(t0) : 0;
    t0 = Clock::now();
    comm::broadcast_command(group, command, states);
    beat(control.watchdog, "the command of coupling step", summary.coupling_steps);
    if (command.kind == CommandKind::Failure) failure.share(group);
    if (command.kind == CommandKind::Finish) break;
    if (command.kind == CommandKind::Periodic) {  // the same file as a stop's, replaced atomically
      checkpoints.write(terrain, summary.coupling_steps, command.time);
      continue;
    }
    if (command.kind == CommandKind::Checkpoint) {
      checkpoints.write(terrain, summary.coupling_steps, command.time);
      summary.stopped = true;
      if (leader) summary.stop_reason = coupler->checkpoint_request()->reason;
      break;
    }

    // Fan out, then advance.
    const CouplingStep step{summary.coupling_steps, command.time};
    fan_out(terrain, shoes, states);
    times.exchange = since(t0);
    observers.on_states(terrain, step, states);  // the moving patch: timed by itself
    t0 = Clock::now();
    const double observed = advance(terrain, shoes, step.time, config.scene.step.step_size, body_loads,
                                   observers, coupler, control.watchdog);
    // Waiting here for the slowest terrain rank is load imbalance of the sub-steps, not coupling
    // exchange: it is timed apart (imbalance). The same collective tells every rank whether any
    // of them caught a stop signal.
    const Clock::time_point barrier = Clock::now();
    int signal = 0;
    if (control.stop != nullptr) signal = control.stop->caught_anywhere(group);
    else group.barrier();
    if (signal != 0) summary.signal = signal;
    times.imbalance = since(barrier);
    times.compute = since(t0) - observed;
    observers.on_advanced(terrain, step);  // collective, outside the timed work
    if (signal != 0 && !hello.checkpoint) {
      // A vehicle that cannot checkpoint (an external client without the capability) is never
      // sent forces_stop: the terrain ends alone, with its checkpoint of t_{k+1}, and says why.
      checkpoints.write(terrain, step.index + 1, step.time + hello.coupling_step);
      summary.stopped = true;
      summary.stop_reason = std::string("SIG") + comm::signal_name(signal) + " on the terrain";
      if (leader)
        coupler->abort("the terrain stopped on SIG" + std::string(comm::signal_name(signal)) + " after coupling step " +
                       std::to_string(step.index) + " (its forces were not sent); its checkpoint of step " +
                       std::to_string(step.index + 1) + " is " + checkpoints.path().string());
      ++summary.coupling_steps;
      break;
    }

    // Reduce and send.
    t0 = Clock::now();
    send_loads(terrain, shoes, coupler, signal != 0 && !inbox.stopping());
    if (signal != 0) inbox.stop_asked();
    times.exchange += since(t0);
    observers.on_sent(step, times);
    ++summary.coupling_steps;
    summary.wait_seconds += times.wait;
    summary.terrain_seconds += times.compute;
    summary.exchange_seconds += times.exchange;
  }
  observers.on_end(terrain, summary);
  summary.wall_seconds = since(start);
  summary.device_copies = gpu::transfer_bytes() - copied_before;
  return summary;
}

}  // namespace trackcosim::terrain
