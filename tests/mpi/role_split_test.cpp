// Runs on 2 and 4 ranks (ctest names end in _np2, _np4).
#include "comm/role_split.h"

#include <gtest/gtest.h>

#include "tests/support/mpi_world.h"

using trackcosim::comm::Role;

using trackcosim::test::world_rank;
using trackcosim::test::world_size;

// The MPMD layout of a co-simulation: world rank 0 is the vehicle, the rest are terrain.
TEST(RoleSplit, OneVehicleRankAndTheRestTerrain) {
  const Role role = world_rank() == 0 ? Role::Vehicle : Role::Terrain;
  auto layout = trackcosim::comm::split_by_role(MPI_COMM_WORLD, role);
  EXPECT_EQ(layout.vehicle_ranks, 1);
  EXPECT_EQ(layout.terrain_ranks, world_size() - 1);
  EXPECT_EQ(layout.vehicle_leader, 0);
  EXPECT_EQ(layout.terrain_leader, 1);
  if (role == Role::Vehicle) {
    EXPECT_EQ(layout.role_size, 1);
    EXPECT_EQ(layout.role_rank, 0);
  } else {
    EXPECT_EQ(layout.role_size, world_size() - 1);
    EXPECT_EQ(layout.role_rank, world_rank() - 1);  // order follows world rank
  }
  trackcosim::comm::release_role_layout(layout);
  EXPECT_EQ(layout.role_comm, MPI_COMM_NULL);
}

// srun --multi-prog may interleave programs: roles need not be contiguous in world rank.
TEST(RoleSplit, InterleavedRolesFindTheLowestRankAsLeader) {
  const Role role = world_rank() % 2 == 1 ? Role::Vehicle : Role::Terrain;
  auto layout = trackcosim::comm::split_by_role(MPI_COMM_WORLD, role);
  EXPECT_EQ(layout.terrain_leader, 0);
  EXPECT_EQ(layout.vehicle_leader, 1);
  EXPECT_EQ(layout.vehicle_ranks + layout.terrain_ranks, world_size());
  EXPECT_EQ(layout.role_rank, world_rank() / 2);
  // A reduction inside the role communicator only sees ranks of that role.
  int one = 1, members = 0;
  MPI_Allreduce(&one, &members, 1, MPI_INT, MPI_SUM, layout.role_comm);
  EXPECT_EQ(members, role == Role::Vehicle ? world_size() / 2 : (world_size() + 1) / 2);
  trackcosim::comm::release_role_layout(layout);
}

// A terrain-only run (no vehicle) reports no vehicle leader rather than a bogus rank.
TEST(RoleSplit, TerrainOnlyRunHasNoVehicleLeader) {
  auto layout = trackcosim::comm::split_by_role(MPI_COMM_WORLD, Role::Terrain);
  EXPECT_EQ(layout.vehicle_leader, -1);
  EXPECT_EQ(layout.vehicle_ranks, 0);
  EXPECT_EQ(layout.terrain_ranks, world_size());
  trackcosim::comm::release_role_layout(layout);
}
