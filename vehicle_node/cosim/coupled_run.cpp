#include "vehicle_node/cosim/coupled_run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <memory>
#include <stdexcept>

#include "comm/mpi_channel.h"
#include "comm/mpi_session.h"
#include "comm/role_split.h"
#include "comm/tcp_channel.h"
#include "cosim/coupler.h"
#include "cosim/output_file.h"
#include "cosim/version.h"
#include "vehicle_node/driver/driver.h"
#include "vehicle_node/ground/ground_settings.h"
#include "vehicle_node/standalone/run_config.h"
#include "vehicle_node/standalone/vehicle_recorder.h"
#include "vehicle_node/track/tracked_vehicle.h"

namespace trackcosim::vehicle {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

/// Shoes of both tracks in one order (left then right), the order of every message.
std::vector<BodyId> all_shoes(const TrackedVehicle& v) {
  std::vector<BodyId> out;
  for (const Side s : kSides)
    for (const BodyId b : v.track(s).shoes) out.push_back(b);
  return out;
}

cosim::ShoeState shoe_state(const MultibodySystem& system, BodyId b) {
  const BodyState s = system.state(b);
  return {{s.position.x, s.position.y, s.position.z},
          {s.orientation.w, s.orientation.x, s.orientation.y, s.orientation.z},
          {s.velocity.x, s.velocity.y, s.velocity.z},
          {s.angular_velocity.x, s.angular_velocity.y, s.angular_velocity.z}};
}

std::vector<cosim::ShoeState> shoe_states(const MultibodySystem& system, const std::vector<BodyId>& shoes) {
  std::vector<cosim::ShoeState> out;
  for (const BodyId b : shoes) out.push_back(shoe_state(system, b));
  return out;
}

cosim::VehicleHello make_hello(const TrackedVehicle& v, const MultibodySystem& system, double coupling_step,
                               double end_time, const std::string& scheme) {
  cosim::VehicleHello h;
  h.coupling_step = coupling_step;
  h.end_time = end_time;
  h.scheme = scheme;
  for (const Side s : kSides) {
    cosim::ShoeGeometry g;
    g.mass = v.model().track.shoes.mass;
    for (const LocalSphere& sp : v.terrain_shoe_spheres(s)) g.spheres.push_back({sp.offset, sp.radius});
    for (const BodyId b : v.track(s).shoes) {
      h.shoes.push_back(g);
      h.initial.push_back(shoe_state(system, b));
    }
  }
  return h;
}

std::unique_ptr<comm::Channel> open_channel(const CoupledOptions& o) {
  if (o.transport == "tcp") return comm::tcp_connect(o.host, o.port, o.timeout);
  if (o.transport != "mpi") throw std::invalid_argument("--terrain must be mpi or tcp, got " + o.transport);
  comm::ensure_mpi();
  const comm::RoleLayout roles = comm::split_by_role(MPI_COMM_WORLD, comm::Role::Vehicle);
  if (roles.role_size != 1)
    throw std::invalid_argument("vehicle_node runs on one rank; the job gave it " + std::to_string(roles.role_size));
  return std::make_unique<comm::MpiChannel>(roles);
}

/// Lowest point of a shoe's spheres in the world (m).
double lowest_point(const MultibodySystem& system, BodyId b, const std::vector<LocalSphere>& spheres) {
  const BodyState s = system.state(b);
  double low = 1e300;
  for (const LocalSphere& sp : spheres) low = std::min(low, (s.position + rotate(s.orientation, sp.offset)).z - sp.radius);
  return low;
}

}  // namespace

CoupledSummary run_coupled(const CoupledOptions& o, std::ostream& progress) {
  RunConfig config = load_run_config(o.config);
  if (o.end_time) config.simulation.end_time = *o.end_time;
  if (o.step) config.simulation.step = *o.step;
  check_simulation_settings(config.simulation);
  const double h = config.simulation.step;
  const double coupling_step = o.coupling_step > 0 ? o.coupling_step : h;
  const auto substeps = static_cast<std::size_t>(std::llround(coupling_step / h));
  if (substeps < 1 || std::fabs(double(substeps) * h - coupling_step) > 1e-9 * coupling_step)
    throw std::invalid_argument("--coupling-step " + std::to_string(coupling_step) +
                                " must be a whole number of vehicle steps of " + std::to_string(h) + " s");
  // Refused before connecting: the hello would otherwise carry it to the terrain first.
  if (o.scheme != "concurrent" && o.scheme != "sequential")
    throw std::invalid_argument("--coupling-scheme must be concurrent or sequential, got " + o.scheme);
  cosim::create_output_folder(o.out_dir);

  cosim::VehicleCoupler coupler(open_channel(o), o.timeout);
  // The hello needs the shoes' geometry and a first pose: a provisional placement on the
  // config's flat ground. The real placement uses the terrain's surface height.
  GroundSettings provisional = config.ground;
  provisional.profile = GroundProfile::kFlat;
  MultibodySystem sketch;
  const TrackedVehicle sketch_vehicle(config.vehicle, sketch, *make_ground(provisional));
  const cosim::TerrainWelcome w =
      coupler.handshake(make_hello(sketch_vehicle, sketch, coupling_step, config.simulation.end_time, o.scheme));

  GroundSettings surface = provisional;
  surface.height = w.surface_height;
  MultibodySystem system;
  const TrackedVehicle vehicle(config.vehicle, system, *make_ground(surface));
  const std::vector<BodyId> shoes = all_shoes(vehicle);
  const std::vector<LocalSphere> left_spheres = vehicle.terrain_shoe_spheres(Side::kLeft),
                                 right_spheres = vehicle.terrain_shoe_spheres(Side::kRight);
  const std::size_t left_count = vehicle.track(Side::kLeft).shoes.size();

  const auto coupling_steps = static_cast<std::size_t>(std::llround(config.simulation.end_time / coupling_step));
  const auto output_every = std::max<std::size_t>(
      1, static_cast<std::size_t>(std::llround(config.simulation.output_interval / coupling_step)));
  VehicleRecorder recorder(vehicle);
  std::ofstream timing(o.out_dir / "timing.csv");
  timing << "step,t,vehicle,wait,terrain_fz\n";
  CoupledSummary summary;
  summary.shoes = shoes.size();
  summary.particles = w.particles;
  const double x0 = system.state(vehicle.chassis()).position.x;
  std::vector<cosim::ShoeForce> forces(shoes.size(), cosim::ShoeForce{{0, 0, 0}, {0, 0, 0}});
  const bool sequential = o.scheme == "sequential";
  const Clock::time_point start = Clock::now();
  Clock::time_point last_progress = start;
  try {
    for (std::size_t k = 0; k < coupling_steps; ++k) {
      // Concurrent: this interval runs on the forces of the last one while the terrain computes
      // this one's. Sequential: wait for this interval's forces first (docs/protocol.md).
      Clock::time_point t0 = Clock::now();
      double wait = 0;
      coupler.send_states(system.time(), shoe_states(system, shoes));
      if (sequential) {
        forces = coupler.receive_forces();
        wait = since(t0);
        t0 = Clock::now();
      }
      for (std::size_t i = 0; i < shoes.size(); ++i)
        system.set_external_force(shoes[i], {forces[i].force[0], forces[i].force[1], forces[i].force[2]},
                                  {forces[i].torque[0], forces[i].torque[1], forces[i].torque[2]});
      for (std::size_t s = 0; s < substeps; ++s) {
        apply_driver(config.driver, vehicle, system, system.time());
        vehicle.apply_travel_stops(system, h);
        system.step(h);
      }
      const double compute = since(t0);
      if (!sequential) {
        t0 = Clock::now();
        forces = coupler.receive_forces();
        wait = since(t0);
      }
      summary.wait_seconds += wait;
      double fz = 0;  // the terrain's vertical force on all shoes: the vehicle's weight once settled
      for (const cosim::ShoeForce& f : forces) fz += f.force[2];
      timing << k << ',' << system.time() << ',' << compute << ',' << wait << ',' << fz << '\n';
      const Vec3 chassis = system.state(vehicle.chassis()).position;
      if (!std::isfinite(chassis.x + chassis.y + chassis.z))
        throw std::runtime_error("the vehicle diverged at t = " + std::to_string(system.time()) + " s");
      if ((k + 1) % output_every == 0) recorder.record(system);
      summary.coupling_steps = k + 1;
      if (o.progress_seconds > 0 && since(last_progress) >= o.progress_seconds) {
        const double wall = since(start), rate = double(k + 1) / wall;
        progress << "vehicle_node: t = " << system.time() << " / " << config.simulation.end_time << " s, "
                 << static_cast<int>(rate) << " coupling steps/s, ETA "
                 << static_cast<int>(double(coupling_steps - k - 1) / rate) << " s\n"
                 << std::flush;
        last_progress = Clock::now();
      }
    }
    coupler.finish();
  } catch (const std::exception& e) {
    coupler.abort(std::string("the vehicle stopped: ") + e.what());
    recorder.write(o.out_dir);
    throw;
  }
  summary.wall_seconds = since(start);
  summary.simulated_seconds = system.time();
  summary.distance_m = system.state(vehicle.chassis()).position.x - x0;
  double depth = 0;
  int loaded = 0;
  for (std::size_t i = 0; i < shoes.size(); ++i) {
    if (forces[i].force[2] <= 1.0) continue;  // not carried by the terrain
    depth += w.surface_height - lowest_point(system, shoes[i], i < left_count ? left_spheres : right_spheres);
    ++loaded;
  }
  summary.sinkage_m = loaded > 0 ? depth / loaded : 0.0;
  recorder.write(o.out_dir);
  nlohmann::json run;
  run["program"] = "vehicle_node";
  run["version"] = std::string(cosim::kTrackcosimVersion);
  run["mode"] = "cosim";
  run["transport"] = o.transport;
  run["config_file"] = config.source;
  run["coupling_step"] = coupling_step;
  run["coupling_scheme"] = o.scheme;
  run["terrain"] = {{"particles", w.particles}, {"surface_height", w.surface_height}, {"terrain_step", w.terrain_step}};
  run["result"] = {{"coupling_steps", summary.coupling_steps},
                   {"simulated_s", summary.simulated_seconds},
                   {"wall_s", summary.wall_seconds},
                   {"wait_s", summary.wait_seconds},
                   {"distance_m", summary.distance_m},
                   {"sinkage_m", summary.sinkage_m}};
  run["config"] = config.document;
  cosim::write_output_file(o.out_dir / "run.json", [&run](std::ostream& out) { out << run.dump(2) << '\n'; });
  return summary;
}

}  // namespace trackcosim::vehicle
