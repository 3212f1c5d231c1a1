#pragma once
// Exact comparisons of body states for the MPI tests (the rank-count independence contract is
// bitwise), and a temporary file name every rank agrees on.

#include <gtest/gtest.h>
#include <mpi.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "gpu/dynamics/body_set.h"

namespace trackcosim::test {

inline bool same_bits(real a, real b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// The 13 reals of a state: position, orientation, velocity, angular velocity.
inline std::vector<real> state_reals(const gpu::BodyState& s) {
  return {s.position.x,   s.position.y,   s.position.z,   s.orientation.w,      s.orientation.x,
          s.orientation.y, s.orientation.z, s.velocity.x,  s.velocity.y,         s.velocity.z,
          s.angular_velocity.x, s.angular_velocity.y, s.angular_velocity.z};
}

/// Exact comparison of two state lists; reports the first difference.
inline void expect_bitwise_equal(const std::vector<gpu::BodyState>& got, const std::vector<gpu::BodyState>& want,
                                 const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i].gid, want[i].gid) << what;
    const std::vector<real> gv = state_reals(got[i]), wv = state_reals(want[i]);
    for (std::size_t k = 0; k < gv.size(); ++k)
      ASSERT_TRUE(same_bits(gv[k], wv[k])) << what << ": gid " << got[i].gid << " component " << k << ": " << gv[k]
                                           << " vs " << wv[k] << " (difference " << gv[k] - wv[k] << ")";
  }
}

/// A file name in the temporary folder, rank 0's, the same on every rank of `comm` (collective).
inline std::string shared_temp_path(MPI_Comm comm, const std::string& prefix) {
  std::string path =
      (std::filesystem::temp_directory_path() / (prefix + std::to_string(::getpid()) + ".bin")).string();
  int length = static_cast<int>(path.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, comm);
  path.resize(static_cast<std::size_t>(length));
  MPI_Bcast(path.data(), length, MPI_CHAR, 0, comm);
  return path;
}

}  // namespace trackcosim::test
