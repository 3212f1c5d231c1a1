// domain.balance_by = "contacts" (docs/terrain-config.md): a moved cut splits the solved contacts
// evenly, not the particles. The bed is a pile 3 layers deep beside as many spheres spread in one
// loose layer (mostly touching the floor alone), so particle-count cuts sit near the seam and
// leave the pile's rank with about twice the contacts; contact cuts must even them out. Jacobi gives the same bits on any
// cuts (docs/ccp.md, "Determinism"), so the states must be one rank's whichever way the cuts go.

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "terrain_node/config/terrain_config.h"
#include "terrain_node/distributed/distributed_terrain.h"
#include "terrain_node/distributed/patch_box.h"
#include "tests/support/mpi_world.h"
#include "tests/support/state_compare.h"

namespace trackcosim::terrain {
namespace {

using test::expect_bitwise_equal;
using test::world_rank;
using test::world_size;

// 300 spheres in 3 layers over 0.22 m, 300 in one layer of cells 4 cm apart over the next 2.4 m;
// settled 0.3 s, the cuts moved every 100 steps, the last time just before the last step.
constexpr const char* kTwoPiles = R"({
  "container": {"min": [0, 0, 0], "max": [2.62, 0.22, 0.3]},
  "particles": [
    {"kind": "layers", "min": [0, 0], "max": [0.22, 0.22], "bottom": 0.01, "layers": 3, "radius": 0.01, "seed": 3},
    {"kind": "layers", "min": [0.22, 0], "max": [2.62, 0.22], "bottom": 0.01, "layers": 1, "radius": 0.01, "gap": 1.0,
     "seed": 4}],
  "step_size": 1e-3,
  "end_time": 0.301,
  "solver": {"method": "jacobi", "max_iterations": 20, "max_recovery_speed": 0.5},
  "collision": {"envelope": 0.001},
  "domain": {"rebalance_interval": 100},
  "output": {"progress_interval": 0}
})";

struct Split {
  std::vector<gpu::BodyState> states;  ///< on the leader
  double contact_ratio = 0;            ///< the busier rank's solved contacts over the other's, last step
};

Split run(const std::string& balance_by, MPI_Comm comm) {
  TerrainConfig config = parse_terrain_config(kTwoPiles, "two piles");
  config.scene.domain.balance_by = balance_by;
  DistributedTerrain terrain(config, comm, "slab:x");
  for (std::uint64_t k = 0; k < config.step_count(); ++k) terrain.step();
  Split s;
  double contacts = static_cast<double>(terrain.local_stats().contacts), most = contacts, least = contacts;
  MPI_Allreduce(MPI_IN_PLACE, &most, 1, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(MPI_IN_PLACE, &least, 1, MPI_DOUBLE, MPI_MIN, comm);
  s.contact_ratio = most / std::max(least, 1.0);
  s.states = terrain.gather_states();
  return s;
}

TEST(BalanceByContacts, CutsEvenTheSolvedContactsAndKeepJacobisBits) {
  if (world_size() != 2) GTEST_SKIP() << "needs 2 ranks";
  Split single;
  if (world_rank() == 0) single = run("particles", MPI_COMM_SELF);
  const Split particles = run("particles", MPI_COMM_WORLD);
  const Split contacts = run("contacts", MPI_COMM_WORLD);
  if (world_rank() != 0) return;
  std::printf("busier rank's contacts over the other's: cuts by particles %.3f, by contacts %.3f\n",
              particles.contact_ratio, contacts.contact_ratio);
  EXPECT_GT(particles.contact_ratio, 1.5) << "the bed no longer tells the two balances apart";
  EXPECT_LT(contacts.contact_ratio, 1.1);
  expect_bitwise_equal(particles.states, single.states, "cuts by particles");
  expect_bitwise_equal(contacts.states, single.states, "cuts by contacts");
}

// A moving patch's first application takes most of a settled bed out of the solver (the start of
// every co-simulation with cosim.moving_patch). The cut must then split the contacts still solved,
// inside the patch: counting the whole settled bed's contacts put it in the middle of the bed,
// past the patch, and one rank was left with all the work (the heavy vehicles' first runs stepped
// 2-3 times slower than the same state resumed). A bed 0.6 m long, settled whole for 60 steps,
// then a patch over its first 0.25 m.
constexpr const char* kLongBed = R"({
  "container": {"min": [0, 0, 0], "max": [0.6, 0.12, 0.3]},
  "particles": [{"kind": "layers", "min": [0, 0], "max": [0.6, 0.12], "bottom": 0.015, "layers": 2,
                 "radius": 0.01, "seed": 3}],
  "step_size": 1e-3, "end_time": 0.06,
  "solver": {"method": "jacobi", "max_iterations": 25, "max_recovery_speed": 0.5},
  "collision": {"envelope": 0.001},
  "domain": {"balance_by": "contacts"},
  "output": {"progress_interval": 0}
})";

TEST(BalanceByContacts, APatchOverPartOfASettledBedSplitsTheContactsInsideIt) {
  if (world_size() != 2) GTEST_SKIP() << "needs 2 ranks";
  const TerrainConfig config = parse_terrain_config(kLongBed, "long bed");
  DistributedTerrain terrain(config, MPI_COMM_WORLD, "slab:x");
  for (std::uint64_t k = 0; k < config.step_count(); ++k) terrain.step();
  PatchBox patch;
  patch.x_lo = -1, patch.x_hi = 0.25, patch.boundary = 0.02;
  terrain.apply_patch(patch, true);
  terrain.step();
  double contacts = static_cast<double>(terrain.local_stats().contacts), most = contacts, least = contacts;
  MPI_Allreduce(MPI_IN_PLACE, &most, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &least, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  if (world_rank() == 0) std::printf("contacts per rank after the patch: %.0f and %.0f\n", most, least);
  EXPECT_GT(least, 0.0) << "one rank solves nothing: the cut is outside the patch";
  EXPECT_LT(most / std::max(least, 1.0), 1.25);
}

TEST(BalanceByContacts, AnUnknownChoiceIsRefusedByName) {
  std::string text = kTwoPiles;
  text.replace(text.find("\"rebalance_interval\""), 0, "\"balance_by\": \"grains\", ");
  try {
    parse_terrain_config(text, "two piles");
    FAIL() << "balance_by \"grains\" was accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("domain.balance_by"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("\"particles\" or \"contacts\""), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace trackcosim::terrain
