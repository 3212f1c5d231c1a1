#pragma once
// MPI for programs and tests that may run without mpiexec: initialises MPI once (a singleton
// run is one rank) and finalises it at exit.

#include "comm/role_split.h"

namespace trackcosim::comm {

/// Initialises MPI unless it already is; registers MPI_Finalize at exit when it initialised it.
/// Ignores SIGPIPE first, so a peer lost mid-run is reported as an error rather than a kill; a
/// crash is reported in one line (comm/fatal_signal.h) instead of Open MPI's crash dump.
void ensure_mpi();

/// This program's role communicator for the lifetime of the object: initialises MPI when
/// needed, splits MPI_COMM_WORLD by `role` (collective) and frees the split at the end.
class RoleScope {
 public:
  explicit RoleScope(Role role);
  ~RoleScope();
  RoleScope(const RoleScope&) = delete;
  RoleScope& operator=(const RoleScope&) = delete;
  const RoleLayout& layout() const { return layout_; }

 private:
  RoleLayout layout_;
};

/// split_by_role over MPI_COMM_WORLD: what a program of an MPMD job does (collective). It also
/// records this process's rank within its program for program_rank().
RoleLayout split_world_by_role(Role role);

/// Whether this build runs on comm/mpi_stub (TRACKCOSIM_MPI=OFF): one process, no other rank
/// to wait for, so nothing to say about how waiting ranks wait.
bool mpi_is_stub();

/// This rank's number among all ranks of the job, or 0 when MPI is not (or no longer) running:
/// for messages that may come before MPI starts or after it failed.
int world_rank_if_initialised();

/// This rank's number among the ranks of its own program: its role rank once split_world_by_role
/// ran (in an MPMD co-simulation the terrain's leader is world rank 1, not 0), else
/// world_rank_if_initialised(). Who prints a program's errors: its rank 0.
int program_rank();

/// Stops every rank of MPI_COMM_WORLD with `code` when more than one runs, else returns `code`.
int abort_all_or_return(int code);

/// For a failure every rank of a program meets alike (a refused config, the leader's lost
/// vehicle): its first rank (`leader`) prints the one error line, then stops every rank; the
/// others wait up to `grace_seconds` for that before stopping every rank themselves, so that
/// their abort cannot end the job before the line is out. Returns `code` on one rank.
int abort_all_after_the_leader(int code, bool leader, double grace_seconds);

}  // namespace trackcosim::comm
