// The MPI transport (comm/mpi_channel.h) between the two role leaders, as under
// `mpirun -np 1 vehicle : -np N terrain`: world rank 0 plays the vehicle, the others the
// terrain (and, in the second test, the vehicle is the last rank instead). A handshake, three
// coupling steps and a finish go leader to leader; the other terrain ranks only take part in
// building the intercommunicator.

#include <gtest/gtest.h>

#include <memory>

#include "comm/mpi_channel.h"
#include "cosim/coupler.h"
#include "tests/support/mpi_world.h"

namespace trackcosim::cosim {
namespace {

using test::world_rank;
using test::world_size;

void run_pair(int vehicle_world_rank) {
  const bool vehicle = world_rank() == vehicle_world_rank;
  comm::RoleLayout roles = comm::split_by_role(MPI_COMM_WORLD, vehicle ? comm::Role::Vehicle : comm::Role::Terrain);
  auto channel = std::make_unique<comm::MpiChannel>(roles);
  if (vehicle) {
    VehicleCoupler v(std::move(channel), 30);
    VehicleHello h;
    h.coupling_step = 2e-3;
    h.end_time = 0.006;
    h.shoes.resize(2, ShoeGeometry{1.0, {{{0, 0, 0}, 0.01}}});
    h.initial.resize(2, ShoeState{{0, 0, 0.3}, {1, 0, 0, 0}, {1, 0, 0}, {0, 0, 0}});
    const TerrainWelcome& w = v.handshake(h);
    EXPECT_EQ(w.particles, static_cast<std::uint64_t>(world_size() - 1));  // the terrain says how many ranks it has
    for (int k = 0; k < 3; ++k) {
      v.send_states(2e-3 * k, h.initial);
      const std::vector<ShoeForce> f = v.receive_forces();
      EXPECT_EQ(f[1].force[2], 10.0 * (k + 1));
    }
    v.finish();
  } else if (roles.role_rank == 0) {
    TerrainCoupler t(std::move(channel), 30);
    TerrainWelcome w;
    w.particles = static_cast<std::uint64_t>(roles.role_size);
    w.terrain_step = 1e-3;
    const VehicleHello& h = t.accept({2e-3, 2}, w);
    EXPECT_EQ(h.shoes.size(), 2u);
    double time = 0;
    int steps = 0;
    while (auto states = t.receive_states(time)) {
      ++steps;
      t.send_forces(std::vector<ShoeForce>(states->size(), ShoeForce{{0, 0, 10.0 * steps}, {0, 0, 0}}));
    }
    EXPECT_EQ(steps, 3);
  }
  channel.reset();
  comm::release_role_layout(roles);
}

TEST(MpiChannel, VehicleAndTerrainLeadersCoupleOverAnIntercommunicator) { run_pair(0); }

TEST(MpiChannel, TheVehicleMayBeAnyWorldRank) { run_pair(world_size() - 1); }

}  // namespace
}  // namespace trackcosim::cosim
