// What a program's MPI wait choice does to Open MPI: starts MPI as vehicle_node and terrain_node do
// (io::prepare_mpi_waits, then comm::ensure_mpi) and prints, per rank, the choice, the value of
// Open MPI's mpi_yield_when_idle read back through the MPI tool interface, and how many naps the
// rank took (comm/idle_nap.h) while waiting 0.1 s at a barrier for the last rank. mpi_wait_run.sh
// runs it.

#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <thread>

#include "comm/idle_nap.h"
#include "comm/mpi_session.h"
#include "io/mpi_wait_environment.h"

namespace {

/// Open MPI's mpi_yield_when_idle as MPI itself holds it: 0 or 1, or -1 when MPI has no such variable.
int yield_when_idle() {
  int provided = 0;
  MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
  int index = 0;
  int value = -1;
  if (MPI_T_cvar_get_index("mpi_yield_when_idle", &index) == MPI_SUCCESS) {
    MPI_T_cvar_handle handle;
    int count = 0;
    MPI_T_cvar_handle_alloc(index, nullptr, &handle, &count);
    bool flag = false;  // an MCA bool is a C bool
    MPI_T_cvar_read(handle, &flag);
    MPI_T_cvar_handle_free(&handle);
    value = flag ? 1 : 0;
  }
  MPI_T_finalize();
  return value;
}

}  // namespace

int main() {
  try {
    const trackcosim::io::MpiWaitChoice& choice = trackcosim::io::prepare_mpi_waits();
    trackcosim::comm::ensure_mpi();
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int yield = yield_when_idle();
    // The others wait inside MPI for the last rank: Open MPI's idle polls.
    if (rank == size - 1) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    MPI_Barrier(MPI_COMM_WORLD);
    std::printf("rank %d wait=%s from=%s yield_when_idle=%d naps=%llu\n", rank, choice.wait.c_str(),
                choice.reason.c_str(), yield, static_cast<unsigned long long>(trackcosim::comm::idle_naps_taken()));
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mpi_wait_probe: %s\n", e.what());
    return 2;
  }
}
