#pragma once
// Splitting MPI_COMM_WORLD by program role. Under `mpirun A : B` and `srun --multi-prog` every
// program sees one shared MPI_COMM_WORLD; each program knows its own role (a constant compiled
// into it), never MPI_APPNUM, which srun does not set (NOTES.md).

#include <mpi.h>

#include "comm/rank_group.h"

namespace trackcosim::comm {

enum class Role : int { Vehicle = 1, Terrain = 2 };

struct RoleLayout {
  MPI_Comm role_comm = MPI_COMM_NULL;  ///< the ranks sharing my role, ordered by world rank
  int role_rank = 0;
  int role_size = 0;
  int vehicle_ranks = 0;
  int terrain_ranks = 0;
  int vehicle_leader = -1;  ///< world rank of the lowest vehicle rank, -1 when none runs
  int terrain_leader = -1;  ///< world rank of the lowest terrain rank, -1 when none runs

  /// The ranks sharing my role, as the group a program's collectives run over.
  RankGroup role_group() const { return RankGroup(role_comm); }
};

/// Collective over `world`. Each rank passes its own role. The caller frees role_comm
/// (release_role_layout).
RoleLayout split_by_role(MPI_Comm world, Role role);

void release_role_layout(RoleLayout& layout);

}  // namespace trackcosim::comm
