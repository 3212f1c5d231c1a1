// What a program's MPI wait choice does to Open MPI: starts MPI as vehicle_node and terrain_node do
// (runtime::prepare_mpi_waits, then comm::ensure_mpi) and prints, per rank, the choice, the value of
// Open MPI's mpi_yield_when_idle read back through the MPI tool interface, and how many naps the
// rank took (comm/idle_nap.h) while it waited inside MPI for the last rank's answers.
// mpi_wait_run.sh runs it.

#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <thread>

#include "comm/idle_nap.h"
#include "comm/mpi_session.h"
#include "runtime/mpi_wait_environment.h"

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
    const trackcosim::runtime::MpiWaitChoice& choice = trackcosim::runtime::prepare_mpi_waits();
    trackcosim::comm::ensure_mpi();
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int yield = yield_when_idle();
    // Rank 0 asks the last rank and waits in MPI_Recv for the answer, which comes 20 ms after the
    // question: Open MPI's idle polls. Rounds repeat until rank 0 has napped, at most 50, so that a
    // starved rank 0 that missed a round's wait cannot fail the test.
    const int last = size - 1;
    for (int round = 0, napped = 0; round < 50 && !napped && last > 0; ++round) {
      int token = round;
      if (rank == 0) {
        MPI_Send(&token, 1, MPI_INT, last, 0, MPI_COMM_WORLD);
        MPI_Recv(&token, 1, MPI_INT, last, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        napped = trackcosim::comm::idle_naps_taken() > 0;
      } else if (rank == last) {
        MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        MPI_Send(&token, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
      }
      MPI_Bcast(&napped, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    std::printf("rank %d wait=%s from=%s yield_when_idle=%d naps=%llu\n", rank, choice.wait.c_str(),
                choice.reason.c_str(), yield, static_cast<unsigned long long>(trackcosim::comm::idle_naps_taken()));
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mpi_wait_probe: %s\n", e.what());
    return 2;
  }
}
