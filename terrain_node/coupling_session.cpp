#include "terrain_node/coupling_session.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

namespace trackcosim::terrain {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

/// The leader's bytes to every rank (a refusal or a failure on the leader becomes an error
/// everywhere, so no rank waits for a step that will not come).
std::vector<unsigned char> broadcast(MPI_Comm comm, bool leader, std::vector<unsigned char> bytes) {
  unsigned long long size = bytes.size();
  MPI_Bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  if (!leader) bytes.resize(size);
  MPI_Bcast(bytes.data(), static_cast<int>(size), MPI_BYTE, 0, comm);
  return bytes;
}

std::vector<unsigned char> as_bytes(const std::string& s) { return {s.begin(), s.end()}; }

/// The welcome: the bed's extent, its surface height (the highest sphere top), particle count
/// and material, from every rank's bodies.
cosim::TerrainWelcome make_welcome(const DistributedTerrain& terrain, const cosim::TerrainConfig& config) {
  const std::vector<gpu::BodyState> states = terrain.gather_states();
  cosim::TerrainWelcome w;
  w.terrain_step = config.scene.step.step_size;
  w.friction = config.scene.material.friction;
  w.density = config.scene.material.density;
  if (!terrain.leader()) return w;
  const gpu::BodySet& b = config.bodies;
  bool any = false;
  for (std::size_t i = 0; i < states.size() && i < b.size(); ++i) {
    if (b.motion[i] != gpu::Motion::Dynamic) continue;
    const Vec3 p = states[i].position;
    if (!any) w.patch_min = w.patch_max = p;
    w.patch_min = {std::min(w.patch_min.x, p.x), std::min(w.patch_min.y, p.y), std::min(w.patch_min.z, p.z)};
    w.patch_max = {std::max(w.patch_max.x, p.x), std::max(w.patch_max.y, p.y), std::max(w.patch_max.z, p.z)};
    any = true;
    ++w.particles;
  }
  real largest = 0;
  for (const real r : b.sphere_radius) largest = std::max(largest, r);
  w.surface_height = w.patch_max.z + largest;
  if (config.scene.container) {
    w.patch_min.x = config.scene.container->min.x, w.patch_min.y = config.scene.container->min.y;
    w.patch_max.x = config.scene.container->max.x, w.patch_max.y = config.scene.container->max.y;
  }
  return w;
}

gpu::BodySet shoe_proxies(const cosim::VehicleHello& hello, gpu::GlobalId first_gid, real friction) {
  gpu::BodySet set;
  for (std::size_t i = 0; i < hello.shoes.size(); ++i) {
    const cosim::ShoeState& s = hello.initial[i];
    gpu::BodyDesc d;
    d.gid = first_gid + i;
    d.motion = gpu::Motion::Kinematic;
    d.position = {s.position[0], s.position[1], s.position[2]};
    d.orientation = {s.orientation[0], s.orientation[1], s.orientation[2], s.orientation[3]};
    d.velocity = {s.velocity[0], s.velocity[1], s.velocity[2]};
    d.angular_velocity = {s.angular_velocity[0], s.angular_velocity[1], s.angular_velocity[2]};
    d.mass = hello.shoes[i].mass;
    d.friction = friction;
    const std::uint32_t b = set.add_body(d);
    for (const cosim::ShoeGeometry::Sphere& sp : hello.shoes[i].spheres) set.add_sphere(b, sp.offset, sp.radius);
  }
  return set;
}

/// The shoe proxies' spring-dampers (docs/protocol.md, "Shoe contact law"). The coupling is
/// explicit. Take one shoe alone (mass m, the track's fastest mode) with spring K and damper C,
/// a = K H^2 / m and b = C H / m over the coupling step H; the proxy's implicit spring adds K H
/// to the damping. A sequential vehicle applies the force of the state at the interval's start:
/// stable for a + b < 2 and 3a + 2b < 4, default a = 2/3, b = 1/3. A concurrent one applies it
/// one interval later: stable only up to a = 0.24 (at b = 0.25), default a = 0.15, b = 0.3
/// (errors shrink by 0.88 per step; tools/coupling_stability.py prints both maps). The default
/// is for the whole shoe and shared by its spheres, so it holds however many of them touch.
/// A kinematic proxy (K infinite) breaks either bound by any margin: the force then swung
/// between 0 and several times the weight from one interval to the next.
gpu::CompliantBody shoe_spring(gpu::GlobalId gid, const cosim::ShoeGeometry& shoe, const cosim::VehicleHello& hello,
                               const cosim::CosimSettings& settings) {
  const bool sequential = hello.scheme == "sequential";
  const double a = sequential ? 2.0 / 3.0 : 0.15, b = sequential ? 1.0 / 3.0 : 0.3;
  const double H = hello.coupling_step;
  const double spheres = static_cast<double>(std::max<std::size_t>(1, shoe.spheres.size()));
  gpu::CompliantBody c{gid, settings.shoe_stiffness, settings.shoe_damping};
  if (c.stiffness <= 0) c.stiffness = a * shoe.mass / (H * H * spheres);
  if (c.damping <= 0) c.damping = b * shoe.mass / (H * spheres);
  return c;
}

gpu::BodyState body_state(gpu::GlobalId gid, const double* s) {
  return {gid, {s[0], s[1], s[2]}, {s[3], s[4], s[5], s[6]}, {s[7], s[8], s[9]}, {s[10], s[11], s[12]}};
}

}  // namespace

CouplingSummary run_coupling(DistributedTerrain& terrain, const cosim::TerrainConfig& config,
                             cosim::TerrainCoupler* coupler, const std::filesystem::path* timing_csv) {
  const bool leader = terrain.leader();
  const MPI_Comm comm = terrain.comm();
  const double h = config.scene.step.step_size;
  const cosim::TerrainWelcome welcome = make_welcome(terrain, config);

  // Handshake on the leader; its outcome (the hello, or the reason it failed) goes to all.
  std::string hello_text, failure;
  if (leader) {
    try {
      const cosim::TerrainExpectations expect{config.scene.cosim.coupling_step, 0, h};
      const comm::Frame f = cosim::encode_hello(coupler->accept(expect, welcome));
      hello_text.assign(f.payload.begin(), f.payload.end());
    } catch (const std::exception& e) {
      failure = e.what();
    }
  }
  const std::vector<unsigned char> failed = broadcast(comm, leader, as_bytes(failure));
  if (!failed.empty()) throw std::runtime_error(std::string(failed.begin(), failed.end()));
  comm::Frame hello_frame{static_cast<std::uint32_t>(cosim::MessageKind::Hello),
                          broadcast(comm, leader, as_bytes(hello_text))};
  const cosim::VehicleHello hello = cosim::decode_hello(hello_frame, "the terrain leader");
  const std::size_t shoes = hello.shoes.size();
  const double coupling_step = hello.coupling_step;
  const auto substeps = static_cast<std::uint64_t>(std::llround(coupling_step / h));

  const gpu::GlobalId first_proxy = config.bodies.size() > 0 ? config.bodies.gid.back() + 1 : 0;
  terrain.add_everywhere_bodies(shoe_proxies(hello, first_proxy, config.scene.material.friction));
  std::vector<gpu::GlobalId> proxies(shoes);
  std::vector<gpu::CompliantBody> springs(shoes);
  for (std::size_t i = 0; i < shoes; ++i) {
    proxies[i] = first_proxy + i;
    springs[i] = shoe_spring(proxies[i], hello.shoes[i], hello, config.scene.cosim);
  }
  terrain.set_compliant_bodies(springs);
  terrain.watch_loads(proxies);

  std::ofstream timing;
  if (leader && timing_csv != nullptr) {
    timing.open(*timing_csv);
    // Per coupling step: the leader's wait for the vehicle, the sub-steps (and the leader's own
    // phases of them, from gpu::StepPhase, plus its ghost/migration messages and its wait for
    // the slowest terrain rank at the end), and the exchange.
    timing << "step,t,wait,terrain";
    for (const std::string_view name : gpu::kStepPhaseNames) timing << ',' << name;
    timing << ",halo,exchange\n";
  }
  std::optional<MovingPatch> patch;
  std::ofstream patch_csv;
  if (const auto& settings = config.scene.cosim.moving_patch) {
    real largest = 0;
    for (const real r : config.bodies.sphere_radius) largest = std::max(largest, r);
    patch.emplace(*settings, largest);
    if (leader && timing_csv != nullptr) {
      patch_csv.open(timing_csv->parent_path() / "patch.csv");
      patch_csv << MovingPatch::csv_header();
    }
  }
  std::vector<Vec3> shoe_positions(shoes);
  CouplingSummary summary;
  summary.shoes = shoes;
  const Clock::time_point start = Clock::now();
  std::vector<double> message(2 + 13 * shoes);  // running flag, t_k, states
  for (;;) {
    Clock::time_point t0 = Clock::now();
    if (leader) {
      double time = 0;
      std::string error;
      try {
        const auto states = coupler->receive_states(time);
        message[0] = states ? 1 : 0;
        message[1] = time;
        if (states) std::memcpy(message.data() + 2, states->data(), states->size() * sizeof(cosim::ShoeState));
      } catch (const std::exception& e) {
        message[0] = -1;
        failure = e.what();
      }
    }
    const double wait = leader ? since(t0) : 0;
    t0 = Clock::now();
    MPI_Bcast(message.data(), static_cast<int>(message.size()), MPI_DOUBLE, 0, comm);
    if (message[0] < 0) {
      const std::vector<unsigned char> why = broadcast(comm, leader, as_bytes(failure));
      throw std::runtime_error(std::string(why.begin(), why.end()));
    }
    if (message[0] == 0) break;
    for (std::size_t i = 0; i < shoes; ++i) terrain.set_kinematic_state(body_state(proxies[i], message.data() + 2 + 13 * i));
    double exchange = since(t0);
    if (patch) {  // once per coupling step, from the states every rank just received
      for (std::size_t i = 0; i < shoes; ++i) shoe_positions[i] = {message[2 + 13 * i], message[3 + 13 * i], message[4 + 13 * i]};
      patch->follow(terrain, shoe_positions, summary.coupling_steps, message[1], patch_csv);
    }
    t0 = Clock::now();
    std::array<double, gpu::kStepPhaseCount> phases{};
    double halo = 0;
    for (std::uint64_t s = 0; s < substeps; ++s) {
      terrain.step();
      for (std::size_t p = 0; p < phases.size(); ++p) phases[p] += terrain.local_stats().phase_seconds[p];
      halo += terrain.exchange_stats().seconds + terrain.exchange_stats().solver_seconds;
    }
    // Waiting here for the slowest terrain rank is load imbalance of the sub-steps, not coupling
    // exchange: it is timed apart and reported with the halo messages.
    const Clock::time_point barrier = Clock::now();
    MPI_Barrier(comm);
    halo += since(barrier);
    const double compute = since(t0);
    t0 = Clock::now();
    const std::vector<std::array<double, 6>> loads = terrain.take_loads();
    if (leader) {
      std::vector<cosim::ShoeForce> forces(shoes);
      for (std::size_t i = 0; i < shoes; ++i)
        for (int c = 0; c < 3; ++c) {
          forces[i].force[c] = loads[i][static_cast<std::size_t>(c)] / coupling_step;
          forces[i].torque[c] = loads[i][static_cast<std::size_t>(c) + 3] / coupling_step;
        }
      coupler->send_forces(forces);
    }
    exchange += since(t0);
    if (timing.is_open()) {
      timing << summary.coupling_steps << ',' << message[1] << ',' << wait << ',' << compute;
      for (const double p : phases) timing << ',' << p;
      timing << ',' << halo << ',' << exchange << '\n';
    }
    ++summary.coupling_steps;
    summary.wait_seconds += wait;
    summary.terrain_seconds += compute;
    summary.exchange_seconds += exchange;
  }
  summary.wall_seconds = since(start);
  if (patch) summary.patch = patch->summary();
  return summary;
}

}  // namespace trackcosim::terrain
