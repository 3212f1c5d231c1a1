#include "vehicle_node/standalone/standalone_run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "io/number_text.h"
#include "io/output_file.h"
#include "io/version.h"
#include "runtime/progress_meter.h"
#include "vehicle_node/output/progress_words.h"
#include "vehicle_node/output/vehicle_vtk_series.h"
#include "vehicle_node/rig/vehicle_control.h"
#include "vehicle_node/standalone/vehicle_recorder.h"

namespace trackcosim::vehicle {
namespace {

using Clock = std::chrono::steady_clock;

RunConfig resolved_config(const StandaloneOptions& o) {
  RunConfig config = load_run_config(o.config);
  if (o.ground_profile) config.ground.profile = *o.ground_profile;
  if (o.end_time) config.simulation.end_time = *o.end_time;
  if (o.step) config.simulation.step = *o.step;
  if (o.output_interval) config.simulation.output_interval = *o.output_interval;
  check_simulation_settings(config.simulation);
  return config;
}

void write_run_json(const std::filesystem::path& folder, const RunConfig& config, const TrackedVehicle& vehicle,
                    const MultibodySystem& system, const RunSummary& summary, const VehicleVtkSeries& vtk,
                    const VehicleControl& control) {
  nlohmann::json run;
  run["program"] = "vehicle_node";
  run["version"] = std::string(io::kTrackcosimVersion);
  run["mode"] = "standalone";
  run["config_file"] = config.source;
  run["ground"] = {{"type", "rigid"},
                   {"profile", ground_profile_name(config.ground.profile)},
                   {"height", config.ground.height}};
  run["simulation"] = {{"step", config.simulation.step},
                       {"end_time", config.simulation.end_time},
                       {"output_interval", config.simulation.output_interval}};
  run["driver"] = control.run_json();
  if (const nlohmann::json series = vtk.run_json(); !series.is_null()) run["vtk"] = series;
  run["vehicle"] = {{"name", config.vehicle.name},
                    {"bodies", system.body_count()},
                    {"total_mass_kg", config.vehicle.total_mass()},
                    {"shoes_per_track", vehicle.wrap().pins.size()},
                    {"initial_idler_travel_m", vehicle.wrap().idler_travel},
                    {"track_path_length_m", vehicle.wrap().path_length},
                    {"sprocket_pitch_radius_m", vehicle.sprocket_pitch_radius()}};
  run["result"] = {{"steps", summary.steps},
                   {"simulated_s", summary.simulated_seconds},
                   {"wall_s", summary.wall_seconds},
                   {"max_joint_violation_m", summary.max_joint_violation}};
  run["config"] = config.document;
  io::write_output_file(folder / "run.json", [&run](std::ostream& out) { out << run.dump(2) << '\n'; });
}


}  // namespace

RunSummary run_standalone(const StandaloneOptions& options, std::ostream& progress) {
  const RunConfig config = resolved_config(options);
  io::create_output_folder(options.out_dir);

  const std::shared_ptr<const Ground> ground = make_ground(config.ground);
  MultibodySystem system;
  const TrackedVehicle vehicle(config.vehicle, system, *ground);
  system.set_ground(ground, config.vehicle.contact.ground_friction);

  const double h = config.simulation.step;
  const auto steps = static_cast<std::size_t>(std::llround(config.simulation.end_time / h));
  const auto output_every = std::max<std::size_t>(1, static_cast<std::size_t>(std::llround(config.simulation.output_interval / h)));
  VehicleRecorder recorder(vehicle, options.out_dir);  // rows on disk as they come, also after a failure
  VehicleVtkSeries vtk(vehicle, ShoeSpheres::kRigidGround, config.simulation, options.out_dir);
  VehicleControl control(config, options.rig, vehicle, system, options.out_dir);
  RunSummary summary;
  summary.bodies = system.body_count();

  const Clock::time_point start = Clock::now();
  runtime::ProgressMeter meter(progress, options.progress_seconds, /*terminal=*/false, start, "vehicle_node: ");
  const double start_x = system.state(vehicle.chassis()).position.x;
  for (std::size_t k = 1; k <= steps; ++k) {
    control.apply(system, system.time());
    vehicle.apply_travel_stops(system, h);
    system.step(h);
    if (control.has_rig()) control.after_step(system, ground_forces(system, vehicle));
    summary.steps = k;
    summary.max_joint_violation = std::max(summary.max_joint_violation, system.max_joint_violation());
    const Vec3 chassis = system.state(vehicle.chassis()).position;
    if (!std::isfinite(chassis.x + chassis.y + chassis.z))
      throw std::runtime_error("the simulation diverged at t = " + io::number_to_string(system.time()) +
                               " s (chassis position not finite); try a smaller --step");
    if (k % output_every == 0) {
      const std::vector<Vec3> shoe_forces = ground_forces(system, vehicle);
      recorder.record(system, shoe_forces);
      control.record(system);
      vtk.on_row(system, shoe_forces);
    }
    if (options.progress_seconds > 0)
      meter.update({system.time(), config.simulation.end_time, k, 0, progress_words(system, vehicle, start_x)});
  }
  summary.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  summary.simulated_seconds = system.time();
  write_run_json(options.out_dir, config, vehicle, system, summary, vtk, control);
  return summary;
}

}  // namespace trackcosim::vehicle
