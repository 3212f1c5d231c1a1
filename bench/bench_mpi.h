#pragma once
// What every MPI benchmark program needs: MPI set up and torn down around main, this rank's
// place, integer command-line flags, and the slowest rank's time (the one that counts).

#include <mpi.h>

#include <cstdlib>
#include <cstring>

namespace trackcosim::bench {

struct MpiProgram {
  int rank = 0, ranks = 1;
  MpiProgram(int& argc, char**& argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  }
  ~MpiProgram() { MPI_Finalize(); }
  MpiProgram(const MpiProgram&) = delete;
  MpiProgram& operator=(const MpiProgram&) = delete;
};

/// `--name value` as an integer, else `fallback`.
inline long long flag(int argc, char** argv, const char* name, long long fallback) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], name) == 0) return std::atoll(argv[i + 1]);
  return fallback;
}

inline double max_over_ranks(double v) {
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return v;
}

}  // namespace trackcosim::bench
