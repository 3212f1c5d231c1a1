#include "comm/mpi_session.h"

#include <mpi.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <string>
#include <thread>

#include "comm/fatal_signal.h"
#include "comm/idle_nap.h"
#include "comm/rank_group.h"

namespace trackcosim::comm {
namespace {
int recorded_program_rank = -1;  ///< set by split_world_by_role: this rank within its program

/// "terrain_node rank 2": how a crash report names this process.
std::string this_process(int rank) { return std::string(program_invocation_short_name) + " rank " + std::to_string(rank); }

/// MPI is initialised and not yet finalised: MPI calls may be made.
bool mpi_running() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized;
}

void finalize_at_exit() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}
}  // namespace

void ensure_mpi() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) return;
  // A peer that dies closes its TCP sockets; the next write to one raises SIGPIPE, whose default
  // action kills this rank without a word (exit status 141) before MPI, the watchdog or the
  // coupler can name the lost peer. Ignored, the write fails with EPIPE and those report it.
  std::signal(SIGPIPE, SIG_IGN);
  read_idle_nap_setting();
  MPI_Init(nullptr, nullptr);
  // After MPI_Init: replaces the crash dump Open MPI's own handler would print.
  report_fatal_signals(this_process(world_rank_if_initialised()));
  std::atexit(finalize_at_exit);
}

RoleLayout split_world_by_role(Role role) {
  RoleLayout layout = split_by_role(MPI_COMM_WORLD, role);
  recorded_program_rank = layout.role_rank;
  report_fatal_signals(this_process(layout.role_rank));
  return layout;
}

RoleScope::RoleScope(Role role) {
  ensure_mpi();
  layout_ = split_world_by_role(role);
}

RoleScope::~RoleScope() { release_role_layout(layout_); }

bool mpi_is_stub() {
#ifdef TRACKCOSIM_MPI_STUB
  return true;
#else
  return false;
#endif
}

int world_rank_if_initialised() {
  if (!mpi_running()) return 0;
  return RankGroup::world().rank();
}

int program_rank() { return recorded_program_rank >= 0 ? recorded_program_rank : world_rank_if_initialised(); }

int abort_all_after_the_leader(int code, bool leader, double grace_seconds) {
  if (mpi_running() && !leader && RankGroup::world().size() > 1)
    std::this_thread::sleep_for(std::chrono::duration<double>(grace_seconds));  // the leader's abort ends it sooner
  return abort_all_or_return(code);
}

int abort_all_or_return(int code) {
  if (!mpi_running()) return code;
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 1) MPI_Abort(MPI_COMM_WORLD, code);
  return code;
}

}  // namespace trackcosim::comm
