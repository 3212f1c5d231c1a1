#pragma once
// A stand-in vehicle for terrain-side co-simulation tests and benchmarks: a row of flat track
// shoes (plates of overlapping spheres) driven kinematically over the bed at a constant speed
// and a prescribed depth, talking to run_coupling over TCP from a thread on the terrain leader.
// Prescribed motion makes two runs comparable step by step (the shoes are where they would be
// whatever the terrain does), so their forces can be compared directly.

#include <mpi.h>

#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "comm/tcp_channel.h"
#include "cosim/coupler.h"
#include "terrain_node/coupling/coupling_session.h"

namespace trackcosim::test {

struct TrackDrive {
  int shoes = 3;
  real pitch = 0.06;                        ///< m between shoe centres along x
  real shoe_length = 0.05, shoe_width = 0.16;  ///< m, the spheres' centres span this
  real sphere_radius = 0.01;                ///< spacing of the spheres = this radius
  real shoe_mass = 2;                       ///< kg (sets the default contact spring)
  real rear_x = 0.15, y = 0.1;              ///< the last shoe's start and the track's centre line
  real bottom_z = 0;                        ///< m: lowest sphere bottom once lowered
  real lowering_time = 0.04;                ///< s: from 2 radii higher down to bottom_z, before driving
  real speed = 1;                           ///< m/s along +x after lowering
  double coupling_step = 2e-3;
  int coupling_steps = 300;
};

/// Per coupling step, summed over the shoes: traction (x) and vertical (z) force on the track.
struct TrackForces {
  std::vector<double> fx, fz;
  terrain::CouplingSummary summary;  ///< the terrain's (on the leader)
};

inline cosim::VehicleHello track_hello(const TrackDrive& d) {
  cosim::VehicleHello h;
  h.coupling_step = d.coupling_step;
  h.end_time = d.coupling_steps * d.coupling_step;
  h.scheme = "sequential";
  cosim::ShoeGeometry g;
  g.mass = d.shoe_mass;
  const int nx = static_cast<int>(std::lround(d.shoe_length / d.sphere_radius)) + 1;
  const int ny = static_cast<int>(std::lround(d.shoe_width / d.sphere_radius)) + 1;
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j)
      g.spheres.push_back({{d.sphere_radius * i - d.shoe_length / 2, d.sphere_radius * j - d.shoe_width / 2, 0},
                           d.sphere_radius});
  h.shoes.assign(static_cast<std::size_t>(d.shoes), g);
  return h;
}

/// The shoes' states at time t: lowered at constant speed, then driven along x.
inline std::vector<cosim::ShoeState> track_states(const TrackDrive& d, double t) {
  const double drop = 2 * d.sphere_radius, sink_speed = drop / d.lowering_time;
  const bool lowering = t < d.lowering_time;
  const double z = d.bottom_z + d.sphere_radius + (lowering ? drop - sink_speed * t : 0);
  const double x = d.rear_x + (lowering ? 0 : d.speed * (t - d.lowering_time));
  std::vector<cosim::ShoeState> out;
  for (int s = 0; s < d.shoes; ++s)
    out.push_back({{x + d.pitch * s, d.y, z}, {1, 0, 0, 0},
                   {lowering ? 0 : d.speed, 0, lowering ? -sink_speed : 0}, {0, 0, 0}});
  return out;
}

/// Collective over the terrain's communicator: runs the coupling with the track as the vehicle.
/// Forces come back on the leader ({} elsewhere). With `out_dir` (the same on every rank) the
/// terrain writes its files there: timing.csv, patch.csv, particle snapshots.
inline TrackForces drive_track(terrain::DistributedTerrain& terrain, const terrain::TerrainConfig& config,
                               const TrackDrive& d, const std::filesystem::path& out_dir = {}) {
  TrackForces out;
  terrain::CouplingControl control;
  control.snapshot_folder = out_dir;
  const std::filesystem::path timing = out_dir / "timing.csv";
  const std::filesystem::path* timing_csv = out_dir.empty() ? nullptr : &timing;
  if (!terrain.leader()) {
    terrain::run_coupling(terrain, config, nullptr, nullptr, control);
    return out;
  }
  comm::TcpListener listener("127.0.0.1", 0);
  std::string error;
  std::thread vehicle([&, port = listener.port()] {
    try {
      cosim::VehicleCoupler v = cosim::VehicleCoupler::connect_tcp("127.0.0.1", port, 60);
      cosim::VehicleHello h = track_hello(d);
      h.initial = track_states(d, 0);
      v.handshake(h);
      for (int k = 0; k < d.coupling_steps; ++k) {
        v.send_states(d.coupling_step * k, track_states(d, d.coupling_step * k));
        double fx = 0, fz = 0;
        for (const cosim::ShoeForce& f : v.receive_forces()) fx += f.force[0], fz += f.force[2];
        out.fx.push_back(fx);
        out.fz.push_back(fz);
      }
      v.finish();
    } catch (const std::exception& e) {
      error = e.what();
    }
  });
  cosim::TerrainCoupler coupler(listener.accept(60), 60);
  out.summary = terrain::run_coupling(terrain, config, &coupler, timing_csv, control);
  vehicle.join();
  if (!error.empty()) throw std::runtime_error("track vehicle: " + error);
  return out;
}

}  // namespace trackcosim::test
