#include "vehicle_node/coupled/coupled_run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "cosim/coupler.h"
#include "cosim/job_control.h"
#include "io/csv_stream.h"
#include "io/number_text.h"
#include "runtime/progress_meter.h"
#include "io/output_file.h"
#include "vehicle_node/coupled/coupled_observer.h"
#include "vehicle_node/coupled/coupled_recorder.h"
#include "vehicle_node/coupled/coupled_outputs.h"
#include "vehicle_node/coupled/shoe_messages.h"
#include "vehicle_node/coupled/vehicle_checkpoint.h"
#include "vehicle_node/ground/ground_settings.h"
#include "vehicle_node/output/progress_words.h"
#include "vehicle_node/rig/vehicle_control.h"
#include "vehicle_node/standalone/run_config.h"
#include "vehicle_node/track/tracked_vehicle.h"

namespace trackcosim::vehicle {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

/// The config's vehicle placed above a flat ground at `height` (the joints are assembled from
/// this pose, so a resumed run must place it exactly where the first run did).
std::unique_ptr<TrackedVehicle> place_vehicle(const RunConfig& config, MultibodySystem& system, double height) {
  GroundSettings flat = config.ground;
  flat.profile = GroundProfile::kFlat;
  flat.height = height;
  return std::make_unique<TrackedVehicle>(config.vehicle, system, *make_ground(flat));
}

/// A checkpoint continues only the coupling that wrote it.
void check_resume(const VehicleCheckpoint& c, double coupling_step, const std::string& scheme,
                  const std::filesystem::path& file) {
  if (std::fabs(c.coupling_step - coupling_step) > 1e-12 * coupling_step)
    throw std::invalid_argument("--restart " + file.string() + ": the checkpoint's coupling step is " +
                                std::to_string(c.coupling_step) + " s, this run's " + std::to_string(coupling_step) +
                                " s (--coupling-step)");
  if (c.scheme != scheme)
    throw std::invalid_argument("--restart " + file.string() + ": the checkpoint's coupling scheme is " + c.scheme +
                                ", this run's " + scheme + " (--coupling-scheme)");
}

/// What a coupled run refuses before connecting: the hello would otherwise carry it to the
/// terrain first. Returns the vehicle steps per coupling step.
std::size_t check_coupling(const CoupledOptions& o, double h, double coupling_step) {
  const auto substeps = static_cast<std::size_t>(std::llround(coupling_step / h));
  if (substeps < 1 || std::fabs(double(substeps) * h - coupling_step) > 1e-9 * coupling_step)
    throw std::invalid_argument("--coupling-step " + std::to_string(coupling_step) +
                                " must be a whole number of vehicle steps of " + std::to_string(h) + " s");
  if (o.scheme != "concurrent" && o.scheme != "sequential")
    throw std::invalid_argument("--coupling-scheme must be concurrent or sequential, got " + o.scheme);
  if (o.shoe_loads != "explicit" && o.shoe_loads != "implicit")
    throw std::invalid_argument("--shoe-loads must be explicit or implicit, got " + o.shoe_loads);
  // The correction -K e is for the interval whose forces are applied: the vehicle's own.
  if (o.shoe_loads == "implicit" && o.scheme != "sequential")
    throw std::invalid_argument("--shoe-loads implicit needs --coupling-scheme sequential, got " + o.scheme);
  return substeps;
}

/// The hello of this vehicle (placed on `system`) and the terrain's welcome.
cosim::TerrainWelcome handshake(cosim::VehicleCoupler& coupler, const TrackedVehicle& vehicle,
                                const MultibodySystem& system, const CoupledOptions& o, double coupling_step,
                                double end_time, const VehicleCheckpoint* resume) {
  cosim::VehicleHello hello = make_hello(vehicle, system, coupling_step, end_time, o.scheme);
  hello.stiffness = o.shoe_loads == "implicit";
  if (resume != nullptr) {
    hello.start_step = resume->coupling_step_index;
    hello.start_time = system.time();
  }
  return coupler.handshake(hello);
}

/// Advance: the vehicle's steps over one coupling interval with the terrain's `forces` held on the
/// shoes.
void advance(MultibodySystem& system, TrackedVehicle& vehicle, VehicleControl& control, const std::vector<BodyId>& shoes,
             const std::vector<cosim::ShoeForce>& forces, std::size_t substeps, double h) {
  apply_shoe_forces(system, shoes, forces);
  // The forces the substeps apply, as the rig measures them (held over the interval).
  const std::vector<Vec3> applied = control.has_rig() ? terrain_forces(forces) : std::vector<Vec3>{};
  for (std::size_t s = 0; s < substeps; ++s) {
    control.apply(system, system.time());
    vehicle.apply_travel_stops(system, h);
    system.step(h);
    control.after_step(system, applied);
  }
}

/// A drawbar rig's rows and the row in progress continue from the checkpoint; a checkpoint
/// continues only a run with a rig as it had one or none (checked before rig.csv is truncated).
std::optional<VehicleControl::RigCheckpoint> rig_resume(VehicleCheckpoint* resume, const CoupledOptions& o) {
  if (resume == nullptr) return std::nullopt;
  if (resume->rig_csv.empty() != o.rig.empty())
    throw std::invalid_argument("--restart " + o.restart.string() + ": the checkpoint was written " +
                                (resume->rig_csv.empty() ? "without" : "with") + " a drawbar rig, this run has " +
                                (o.rig.empty() ? "none" : "one") + " (--rig)");
  if (o.rig.empty()) return std::nullopt;
  return VehicleControl::RigCheckpoint{std::move(resume->rig_csv), {resume->rig_steps, resume->rig_sums}};
}

/// Both checkpoints of t_k, the top of coupling step k (nothing of it has happened yet on either
/// side): this side's file, then the frame that makes the terrain write its own. A stop and a
/// periodic checkpoint write the same file; `keep_going` tells the terrain which one it is.
class CheckpointPair {
 public:
  /// `run`: the fields that stay the same through the run (coupling, config, placement).
  CheckpointPair(VehicleCheckpoint run, std::filesystem::path file, cosim::VehicleCoupler& coupler,
                 const MultibodySystem& system, OutputRows& outputs, TimingRows& timing, VehicleControl& control)
      : run_(std::move(run)), file_(std::move(file)), coupler_(coupler), system_(system), outputs_(outputs),
        timing_(timing), control_(control) {}

  void write(std::size_t k, double wall_seconds, double wait_seconds, const std::vector<cosim::ShoeForce>& forces,
             const std::string& reason, bool keep_going) {
    VehicleCheckpoint c = run_;
    c.coupling_step_index = k;
    c.wall_seconds = wall_seconds;
    c.wait_seconds = wait_seconds;
    c.system = system_.save_state();
    c.forces = forces;
    RecordedRows rows = outputs_.rows();
    c.recorder_frames = rows.frames;
    c.vehicle_csv = std::move(rows.vehicle_csv);
    c.shoes_csv = std::move(rows.shoes_csv);
    c.timing_csv = timing_.text();
    if (std::optional<VehicleControl::RigCheckpoint> rig = control_.rig_checkpoint()) {
      c.rig_csv = std::move(rig->csv);
      c.rig_steps = rig->progress.steps;
      c.rig_sums = rig->progress.sums;
    }
    write_vehicle_checkpoint(file_, c);
    coupler_.checkpoint(system_.time(), reason, keep_going);
  }
  const std::filesystem::path& file() const { return file_; }

 private:
  VehicleCheckpoint run_;
  std::filesystem::path file_;
  cosim::VehicleCoupler& coupler_;
  const MultibodySystem& system_;
  OutputRows& outputs_;
  TimingRows& timing_;
  VehicleControl& control_;
};

/// Ends the run when the chassis is no longer at a finite place (after the step's timing row,
/// before its output rows).
class DivergenceCheck : public CoupledObserver {
 public:
  explicit DivergenceCheck(const TrackedVehicle& vehicle) : vehicle_(vehicle) {}
  void on_step(const MultibodySystem& system, const CoupledStep&) override {
    const Vec3 chassis = system.state(vehicle_.chassis()).position;
    if (!std::isfinite(chassis.x + chassis.y + chassis.z))
      throw std::runtime_error("the vehicle diverged at t = " + std::to_string(system.time()) + " s");
  }

 private:
  const TrackedVehicle& vehicle_;
};

/// The progress line (runtime/progress_meter.h), plain lines: mpirun forwards this stream beside
/// the terrain's, and a '\r' line would be overwritten by the other program's output.
class ProgressLine : public CoupledObserver {
 public:
  ProgressLine(std::ostream& out, double seconds, Clock::time_point start, double end_time,
               const TrackedVehicle& vehicle, double start_x)
      : meter_(out, seconds, /*terminal=*/false, start, "vehicle_node: "), on_(seconds > 0), end_time_(end_time),
        vehicle_(vehicle), start_x_(start_x) {}
  void on_step(const MultibodySystem& system, const CoupledStep& step) override {
    if (on_) meter_.update({system.time(), end_time_, step.index + 1, 0, progress_words(system, vehicle_, start_x_)});
  }

 private:
  runtime::ProgressMeter meter_;
  bool on_;
  double end_time_;
  const TrackedVehicle& vehicle_;
  double start_x_;
};

}  // namespace

CoupledSummary run_coupled(const CoupledOptions& o, std::ostream& progress) {
  RunConfig config = load_run_config(o.config);
  if (o.end_time) config.simulation.end_time = *o.end_time;
  if (o.step) config.simulation.step = *o.step;
  check_simulation_settings(config.simulation);
  const double h = config.simulation.step;
  const double coupling_step = o.coupling_step > 0 ? o.coupling_step : h;
  const std::size_t substeps = check_coupling(o, h, coupling_step);
  const bool sequential = o.scheme == "sequential";
  const bool implicit_loads = o.shoe_loads == "implicit";
  // A resumed run rebuilds the model exactly as the first run built it and puts the saved state
  // on top of it, before connecting: a checkpoint of another model fails here, not mid-handshake.
  std::optional<VehicleCheckpoint> resume;
  MultibodySystem system;
  std::unique_ptr<TrackedVehicle> vehicle;
  double surface_height = 0;
  if (!o.restart.empty()) {
    resume = read_vehicle_checkpoint(o.restart);
    check_resume(*resume, coupling_step, o.scheme, o.restart);
    surface_height = resume->surface_height;
    vehicle = place_vehicle(config, system, surface_height);
    system.restore_state(resume->system);
    if (resume->forces.size() != vehicle->shoe_count())
      throw std::invalid_argument("--restart " + o.restart.string() + ": the checkpoint has forces for " +
                                  std::to_string(resume->forces.size()) + " shoes, this vehicle has " +
                                  std::to_string(vehicle->shoe_count()));
  }
  io::create_output_folder(o.out_dir);
  // Installed before connecting: a signal while the terrain still settles stops the run at its
  // first coupling step.
  const cosim::StopSignal stop;

  cosim::VehicleCoupler coupler = cosim::VehicleCoupler::connect({o.transport, o.host, o.port, o.timeout});
  cosim::TerrainWelcome w;
  if (resume) {
    w = handshake(coupler, *vehicle, system, o, coupling_step, config.simulation.end_time, &*resume);
  } else {
    // The hello needs the shoes' geometry and a first pose: a provisional placement on the
    // config's flat ground. The real placement uses the terrain's surface height.
    MultibodySystem sketch;
    const std::unique_ptr<TrackedVehicle> sketch_vehicle = place_vehicle(config, sketch, config.ground.height);
    w = handshake(coupler, *sketch_vehicle, sketch, o, coupling_step, config.simulation.end_time, nullptr);
    surface_height = w.surface_height;
    vehicle = place_vehicle(config, system, surface_height);
  }
  const std::vector<BodyId> shoes = all_shoes(*vehicle);
  std::optional<VehicleControl::RigCheckpoint> rig = rig_resume(resume ? &*resume : nullptr, o);
  VehicleControl control(config, o.rig, *vehicle, system, o.out_dir, rig ? &*rig : nullptr);

  const auto coupling_steps = static_cast<std::size_t>(std::llround(config.simulation.end_time / coupling_step));
  const auto output_every = std::max<std::size_t>(
      1, static_cast<std::size_t>(std::llround(config.simulation.output_interval / coupling_step)));
  // The files are streamed from here on; a resumed run starts them with the checkpoint's rows
  // (checked before any file is truncated).
  RecordedRows before;
  std::string_view timing_before;
  if (resume) {
    before = {resume->recorder_frames, std::move(resume->vehicle_csv), std::move(resume->shoes_csv)};
    timing_before = io::rows_after_header(resume->timing_csv, kTimingHeader, "timing.csv");
  }
  OutputRows outputs(*vehicle, config, control, o.out_dir, before, output_every);
  TimingRows timing(o.out_dir, timing_before, output_every);
  CoupledSummary summary;
  summary.shoes = shoes.size();
  summary.particles = w.particles;
  double x0 = system.state(vehicle->chassis()).position.x, wall_before = 0;
  std::vector<cosim::ShoeForce> forces(shoes.size(), cosim::ShoeForce{{0, 0, 0}, {0, 0, 0}});
  std::size_t first = 0;
  if (resume) {
    forces = resume->forces;
    x0 = resume->start_x;
    summary.particles = resume->particles;
    summary.wait_seconds = resume->wait_seconds;
    wall_before = resume->wall_seconds;
    first = resume->coupling_step_index;
    summary.coupling_steps = first;
  }
  // Periodic checkpoints on the coupling-step count from step 0, not on elapsed time, so that a
  // resumed run keeps the schedule of the run it continues.
  const std::size_t checkpoint_every =
      o.checkpoint_interval > 0
          ? std::max<std::size_t>(1, static_cast<std::size_t>(std::llround(o.checkpoint_interval / coupling_step)))
          : 0;
  const Clock::time_point start = Clock::now();
  DivergenceCheck divergence(*vehicle);
  ProgressLine progress_line(progress, o.progress_seconds, start, config.simulation.end_time, *vehicle, x0);
  // Told in this order at the end of every coupling step.
  std::vector<CoupledObserver*> observers{&timing, &divergence, &outputs, &progress_line};
  VehicleCheckpoint run;
  run.coupling_step = coupling_step;
  run.scheme = o.scheme;
  run.config_file = config.source;
  run.surface_height = surface_height;
  run.start_x = x0;
  run.particles = summary.particles;
  CheckpointPair checkpoints(std::move(run), o.out_dir / "checkpoint.bin", coupler, system, outputs, timing, control);
  const auto write_checkpoints = [&](std::size_t k, const std::string& reason, bool keep_going) {
    checkpoints.write(k, wall_before + since(start), summary.wait_seconds, forces, reason, keep_going);
  };
  try {
    for (std::size_t k = first; k < coupling_steps; ++k) {
      // Walltime safety: a signal here, or a terrain rank's (forces_stop), ends the run at t_k
      // with both checkpoints.
      if (const int signal = stop.caught(); signal != 0 || coupler.terrain_asks_to_stop()) {
        summary.stopped_by = signal != 0 ? cosim::signal_name(signal) : "terrain";
        summary.checkpoint = checkpoints.file();
        write_checkpoints(k, signal != 0 ? std::string("SIG") + cosim::signal_name(signal) + " on the vehicle"
                                         : std::string("a stop signal on the terrain"),
                          false);
        break;
      }
      // A resumed run does not write again the checkpoint it started from.
      const bool periodic = checkpoint_every > 0 && k > first && k % checkpoint_every == 0;
      if (periodic) write_checkpoints(k, "every " + io::number_to_string(o.checkpoint_interval) + " s", true);

      // Send, receive, advance. Sequential: this interval's forces come before the vehicle
      // advances. Concurrent: it advances on the forces of the last interval while the terrain
      // computes this one's, and receives them after (docs/protocol.md).
      const double t_k = system.time();
      CoupledStep step{k, 0, 0, &forces};
      Clock::time_point t0 = Clock::now();
      const std::vector<cosim::ShoeState> sent = shoe_states(system, shoes);
      coupler.send_states(t_k, sent);
      if (sequential) {
        forces = coupler.receive_forces();
        step.wait = since(t0);
        t0 = Clock::now();
        if (implicit_loads) apply_shoe_stiffness(system, shoes, coupler.stiffness(), sent, t_k);
      }
      advance(system, *vehicle, control, shoes, forces, substeps, h);
      step.compute = since(t0);
      if (!sequential) {
        t0 = Clock::now();
        forces = coupler.receive_forces();
        step.wait = since(t0);
      }
      summary.wait_seconds += step.wait;
      // The terrain handles frames in order: its forces of step k say that its checkpoint of t_k
      // is whole (the vehicle does not know its folder: terrain=written), so a job killed after
      // this line resumes from the pair.
      if (periodic) {
        std::printf("vehicle checkpoint step=%zu t=%.9g file=%s terrain=written\n", k, t_k,
                    checkpoints.file().string().c_str());
        std::fflush(stdout);
      }
      // shoes.csv gets the terrain's forces of this interval (those of timing.csv's terrain_fz).
      for (CoupledObserver* observer : observers) observer->on_step(system, step);
      summary.coupling_steps = k + 1;
    }
    if (summary.stopped_by.empty()) coupler.finish();
  } catch (const std::exception& e) {
    coupler.abort(std::string("the vehicle stopped: ") + e.what());
    throw;  // the files hold every row so far; timing's destructor writes its last ones
  }
  summary.wall_seconds = wall_before + since(start);
  summary.simulated_seconds = system.time();
  summary.distance_m = system.state(vehicle->chassis()).position.x - x0;
  summary.below_top_m = mean_sinkage(*vehicle, system, shoes, forces, surface_height);
  timing.flush();
  write_run_json(o, config, *vehicle, summary, coupling_step, surface_height, w.terrain_step, first,
                 outputs.vtk_json(), control.run_json());
  return summary;
}

}  // namespace trackcosim::vehicle
