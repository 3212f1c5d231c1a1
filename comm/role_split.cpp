#include "comm/role_split.h"

#include <vector>

namespace trackcosim::comm {

RoleLayout split_by_role(MPI_Comm world, Role role) {
  int world_rank = 0, world_size = 0;
  MPI_Comm_rank(world, &world_rank);
  MPI_Comm_size(world, &world_size);

  // One set-up collective: every rank learns every rank's role, hence both leaders.
  const int mine = static_cast<int>(role);
  std::vector<int> roles(world_size);
  MPI_Allgather(&mine, 1, MPI_INT, roles.data(), 1, MPI_INT, world);

  RoleLayout layout;
  for (int r = 0; r < world_size; ++r) {
    if (roles[r] == static_cast<int>(Role::Vehicle)) {
      if (layout.vehicle_ranks++ == 0) layout.vehicle_leader = r;
    } else if (roles[r] == static_cast<int>(Role::Terrain)) {
      if (layout.terrain_ranks++ == 0) layout.terrain_leader = r;
    }
  }
  MPI_Comm_split(world, mine, world_rank, &layout.role_comm);
  MPI_Comm_rank(layout.role_comm, &layout.role_rank);
  MPI_Comm_size(layout.role_comm, &layout.role_size);
  return layout;
}

void release_role_layout(RoleLayout& layout) {
  if (layout.role_comm != MPI_COMM_NULL) MPI_Comm_free(&layout.role_comm);
}

}  // namespace trackcosim::comm
