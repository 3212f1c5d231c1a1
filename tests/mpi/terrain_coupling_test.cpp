// The terrain side of a co-simulation (terrain_node/coupling/coupling_session.h) with a stand-in vehicle
// in a thread on rank 0, over TCP: one "shoe", a plate of 21 x 21 spheres held still (its
// edges just touch the walls; the proxy meets them through its spring), carries a
// bed of 400 spheres dropped onto it inside frictionless walls. Once settled, the vertical force
// the terrain returns for the shoe is minus the bed's weight within 3%, the horizontal ones
// below 5% of it; and the forces of every coupling step are bitwise the same whether the
// terrain runs on rank 0 alone or on all ranks.

#include <gtest/gtest.h>

#include <cmath>
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

/// Runs the coupled terrain on `comm` (rank 0 of it also hosts the vehicle thread); returns the
/// force on the plate at every coupling step (on rank 0).
std::vector<cosim::ShoeForce> coupled_run(MPI_Comm comm, double* weight) {
  const terrain::TerrainConfig config = terrain::parse_terrain_config(kBed, "plate bed");
  DistributedTerrain terrain(config, comm, "slab:x");
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
      const cosim::VehicleHello h = plate();
      v.handshake(h);
      for (int k = 0; k < kCouplingSteps; ++k) {
        v.send_states(2e-3 * k, h.initial);
        forces.push_back(v.receive_forces()[0]);
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
  EXPECT_EQ(s.coupling_steps, static_cast<std::uint64_t>(kCouplingSteps));
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

}  // namespace
}  // namespace trackcosim::terrain
