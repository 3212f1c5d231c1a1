#pragma once
// MPI for programs and tests that may run without mpiexec: initialises MPI once (a singleton
// run is one rank) and finalises it at exit.

namespace trackcosim::comm {

/// Initialises MPI unless it already is; registers MPI_Finalize at exit when it initialised it.
void ensure_mpi();

/// Stops every rank of MPI_COMM_WORLD with `code` when more than one runs, else returns `code`.
int abort_all_or_return(int code);

}  // namespace trackcosim::comm
