#pragma once
// This rank's place in MPI_COMM_WORLD, for MPI tests.

#include <mpi.h>

namespace trackcosim::test {

inline int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

inline int world_size() {
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

}  // namespace trackcosim::test
