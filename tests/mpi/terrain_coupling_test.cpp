// The terrain side of a co-simulation (terrain_node/coupling/coupling_session.h) with a stand-in vehicle
// in a thread on rank 0, over TCP: one "shoe", a plate of 21 x 21 spheres held still (its
// edges just touch the walls; the proxy meets them through its spring), carries a
// bed of 400 spheres dropped onto it inside frictionless walls. Once settled, the vertical force
// the terrain returns for the shoe is minus the bed's weight within 3%, the horizontal ones
// below 5% of it; and the forces of every coupling step are bitwise the same whether the
// terrain runs on rank 0 alone or on all ranks.

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <numbers>
#include <thread>

#include "comm/tcp_channel.h"
#include "cosim/coupler.h"
#include "terrain_node/coupling/coupling_session.h"
#include "tests/support/mpi_world.h"

namespace trackcosim::terrain {
namespace {

using test::world_rank;

constexpr const char* kBed = R"({
  "container": {"min": [0, 0, -1], "max": [0.22, 0.22, 1], "wall_friction": 0, "floor_friction": 0},
  "particles": [{"kind": "layers", "min": [0, 0], "max": [0.22, 0.22], "bottom": 0.022, "layers": 4,
                 "radius": 0.01, "seed": 2}],
  "step_size": 1e-3, "end_time": 1,
  "solver": {"method": "jacobi", "max_iterations": 60, "max_recovery_speed": 0.5},
  "collision": {"envelope": 0.001},
  "cosim": {"coupling_step": 2e-3, "shoe_stiffness": 1e5, "shoe_damping": 50},
  "output": {"progress_interval": 0}
})";
constexpr int kCouplingSteps = 250;

cosim::VehicleHello plate() {
  cosim::VehicleHello h;
  h.coupling_step = 2e-3;
  h.end_time = kCouplingSteps * 2e-3;
  cosim::ShoeGeometry g;
  g.mass = 5;
  for (int i = 0; i < 21; ++i)
    for (int j = 0; j < 21; ++j) g.spheres.push_back({{0.01 * i - 0.10, 0.01 * j - 0.10, 0}, 0.01});
  h.shoes = {g};
  h.initial = {cosim::ShoeState{{0.11, 0.11, 0}, {1, 0, 0, 0}, {0, 0, 0}, {0, 0, 0}}};
  return h;
}

/// Couples `terrain` for `steps` coupling steps with the plate held still as the vehicle, in a
/// thread on the leader; returns the force on the plate at every coupling step (on the leader).
/// With `stiffness`, the vehicle asks for the shoes' contact stiffness (sequential scheme) and
/// it is kept there, one per coupling step.
std::vector<cosim::ShoeForce> couple_still_plate(DistributedTerrain& terrain, const TerrainConfig& config,
                                                 int steps, std::vector<cosim::ShoeStiffness>* stiffness = nullptr) {
  std::vector<cosim::ShoeForce> forces;
  std::string vehicle_error;
  if (!terrain.leader()) {
    run_coupling(terrain, config, nullptr);
    return forces;
  }
  comm::TcpListener listener("127.0.0.1", 0);
  std::thread vehicle([&, port = listener.port()] {
    try {
      cosim::VehicleCoupler v = cosim::VehicleCoupler::connect_tcp("127.0.0.1", port, 30);
      cosim::VehicleHello h = plate();
      h.end_time = steps * h.coupling_step;
      if (stiffness != nullptr) h.scheme = "sequential", h.stiffness = true;
      v.handshake(h);
      for (int k = 0; k < steps; ++k) {
        v.send_states(h.coupling_step * k, h.initial);
        forces.push_back(v.receive_forces()[0]);
        if (stiffness != nullptr) stiffness->push_back(v.stiffness().at(0));
      }
      v.finish();
    } catch (const std::exception& e) {
      vehicle_error = e.what();
    }
  });
  cosim::TerrainCoupler coupler(listener.accept(30), 30);
  const CouplingSummary s = run_coupling(terrain, config, &coupler);
  vehicle.join();
  EXPECT_EQ(vehicle_error, "");
  EXPECT_EQ(s.coupling_steps, static_cast<std::uint64_t>(steps));
  return forces;
}

/// Runs the coupled bed on `comm` (rank 0 of it also hosts the vehicle thread); returns the
/// force on the plate at every coupling step (on rank 0).
std::vector<cosim::ShoeForce> coupled_run(MPI_Comm comm, double* weight,
                                          std::vector<cosim::ShoeStiffness>* stiffness = nullptr) {
  const terrain::TerrainConfig config = terrain::parse_terrain_config(kBed, "plate bed");
  DistributedTerrain terrain(config, comm, "slab:x");
  std::vector<cosim::ShoeForce> forces = couple_still_plate(terrain, config, kCouplingSteps, stiffness);
  real mass = 0;
  for (std::size_t i = 0; i < config.bodies.size(); ++i)
    if (config.bodies.motion[i] == gpu::Motion::Dynamic) mass += config.bodies.mass[i];
  *weight = 9.81 * mass;
  return forces;
}

TEST(TerrainCoupling, APlateCarriesTheBedsWeightAndForcesDoNotDependOnTheRankCount) {
  double weight = 0;
  std::vector<cosim::ShoeForce> alone;
  if (world_rank() == 0) alone = coupled_run(MPI_COMM_SELF, &weight);
  const std::vector<cosim::ShoeForce> split = coupled_run(MPI_COMM_WORLD, &weight);
  if (world_rank() != 0) return;
  ASSERT_EQ(alone.size(), static_cast<std::size_t>(kCouplingSteps));
  ASSERT_EQ(split.size(), alone.size());
  for (std::size_t k = 0; k < alone.size(); ++k)
    for (int c = 0; c < 3; ++c) {
      ASSERT_EQ(split[k].force[c], alone[k].force[c]) << "step " << k << " component " << c;
      ASSERT_EQ(split[k].torque[c], alone[k].torque[c]) << "step " << k << " component " << c;
    }
  double fz = 0, fx = 0, fy = 0;
  for (std::size_t k = alone.size() - 50; k < alone.size(); ++k) {
    fz += alone[k].force[2] / 50;
    fx += alone[k].force[0] / 50;
    fy += alone[k].force[1] / 50;
  }
  // The bed pushes the plate down with its weight. Sideways, only what the settled bed's
  // jammed contacts lock in against the frictionless walls: a few percent at most.
  EXPECT_NEAR(fz, -weight, 0.03 * weight) << "weight " << weight << " N";
  EXPECT_NEAR(fx, 0, 0.05 * weight);
  EXPECT_NEAR(fy, 0, 0.05 * weight);
  EXPECT_EQ(alone[0].force[2], 0.0);  // nothing touches the plate before the bed lands
}

// Implicit shoe loads (docs/protocol.md): a vehicle that asks for "stiffness" gets, with each
// force, K = k G and C = c G, G the mean over the interval's 2 terrain steps of the plate's loaded
// contacts' g g^T. The config sets k = 1e5 N/m and c = 50 N s/m, so C = 5e-4 K, and the trace of
// K's translational block over k counts loaded contacts (|n| = 1; a multiple of 1/2: a mean over
// 2 steps); the settled bed rests on more than 100 of the plate's 441 spheres. K is the same bits on rank 0 alone and on all ranks, and
// the forces are those of the explicit run (the springs are set, so asking changes nothing else).
TEST(TerrainCoupling, ShoeStiffnessCountsLoadedContactsAndDoesNotDependOnTheRankCount) {
  double weight = 0;
  std::vector<cosim::ShoeStiffness> alone_k, split_k;
  std::vector<cosim::ShoeForce> alone, plain;
  if (world_rank() == 0) alone = coupled_run(MPI_COMM_SELF, &weight, &alone_k);
  if (world_rank() == 0) plain = coupled_run(MPI_COMM_SELF, &weight);
  coupled_run(MPI_COMM_WORLD, &weight, &split_k);
  if (world_rank() != 0) return;
  ASSERT_EQ(alone_k.size(), static_cast<std::size_t>(kCouplingSteps));
  ASSERT_EQ(split_k.size(), alone_k.size());
  ASSERT_EQ(plain.size(), alone.size());
  EXPECT_EQ(std::memcmp(alone_k.data(), split_k.data(), alone_k.size() * sizeof(cosim::ShoeStiffness)), 0);
  EXPECT_EQ(std::memcmp(alone.data(), plain.data(), alone.size() * sizeof(cosim::ShoeForce)), 0);
  const int zz = cosim::ShoeStiffness::packed(2, 2);
  EXPECT_EQ(alone_k.front().stiffness[zz], 0.0);  // nothing touches the plate before the bed lands
  const cosim::ShoeStiffness& last = alone_k.back();
  for (int m = 0; m < cosim::ShoeStiffness::kPacked; ++m)
    EXPECT_NEAR(last.damping[m], 5e-4 * last.stiffness[m], 1e-12 * std::fabs(last.stiffness[zz])) << m;
  double loaded = 0;
  for (int d = 0; d < 3; ++d) loaded += last.stiffness[cosim::ShoeStiffness::packed(d, d)] / 1e5;
  EXPECT_NEAR(2 * loaded, std::round(2 * loaded), 1e-9) << loaded;
  EXPECT_GT(loaded, 100.0);
  EXPECT_LE(loaded, 441.0 * 4);  // a plate sphere meets at most a few grains
  for (int d = 0; d < 6; ++d) EXPECT_GE(last.stiffness[cosim::ShoeStiffness::packed(d, d)], 0.0) << d;
}

// A config body's load schedule runs on the coupling's clock (terrain_node/distributed/
// body_loads.h), not the terrain's: a puck floating without gravity, pushed with 4 N from
// t = 0.1 s, on a terrain that stepped 0.05 s on its own before the coupling (as a settle phase
// does). After 0.2 s of coupling it has been pushed for exactly 0.1 s (100 steps of 1 ms): 0.2 m/s.
// On the terrain's clock it would have been pushed 0.15 s; with the load of t = 0 kept, never.
constexpr const char* kPuck = R"({
  "container": {"min": [0, 0, -1], "max": [1, 1, 1]},
  "bodies": [{"name": "puck", "position": [0.5, 0.5, 0.5],
              "shape": {"spheres": [[0, 0, 0, 0.05]], "mass": 2, "inertia": [0.002, 0.002, 0.002]},
              "loads": [{"from": 0, "force": [0, 0, 0]}, {"from": 0.1, "force": [4, 0, 0]}]}],
  "gravity": [0, 0, 0],
  "step_size": 1e-3, "end_time": 1,
  "solver": {"method": "jacobi", "max_iterations": 10},
  "cosim": {"coupling_step": 2e-3, "shoe_stiffness": 1e5, "shoe_damping": 50},
  "output": {"progress_interval": 0}
})";

TEST(TerrainCoupling, ABodysLoadScheduleFollowsTheCouplingClock) {
  const TerrainConfig config = parse_terrain_config(kPuck, "puck");
  ASSERT_EQ(config.body_gids.size(), 1u);
  DistributedTerrain terrain(config, MPI_COMM_WORLD, "slab:x");
  for (int k = 0; k < 50; ++k) terrain.step();  // the terrain's own 0.05 s before the coupling
  couple_still_plate(terrain, config, 100);
  const std::vector<gpu::BodyState> states = terrain.gather_states({config.body_gids[0]});
  if (world_rank() != 0) return;
  ASSERT_EQ(states.size(), 1u);
  const gpu::BodyState* puck = &states[0];
  EXPECT_NEAR(puck->velocity.x, 0.2, 1e-9);
  // Semi-implicit Euler: x gains v_n h after the n-th pushed step, sum over n of 2e-3 n * 1e-3.
  EXPECT_NEAR(puck->position.x, 0.5 + 2e-6 * 5050, 1e-9);
  EXPECT_EQ(puck->velocity.y, 0.0);
}

}  // namespace
}  // namespace trackcosim::terrain
