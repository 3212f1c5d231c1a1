// A rank of an MPI job that crashes inside the MPI library: rank 1 sends from an address that is
// not mapped (16), so the fault is in Open MPI's copy of the message, while rank 0 waits in a
// barrier. Run by tests/comm/crash_in_mpi_job.sh.
#include <mpi.h>

#include "comm/mpi_session.h"

int main() {
  trackcosim::comm::ensure_mpi();
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 1) {
    char received[64];
    MPI_Sendrecv(reinterpret_cast<void*>(16), 64, MPI_BYTE, 0, 0, received, 64, MPI_BYTE, 0, 0, MPI_COMM_SELF,
                 MPI_STATUS_IGNORE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return 0;
}
