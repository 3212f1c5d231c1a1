// cosim.compaction (terrain_node/coupling/bed_compaction.h), under mpiexec with 1 and 2 ranks: a
// settled bed of 640 spheres is tapped until its sample box's packing reaches a target set
// above the packing it settled to.
//  - the taps make it denser: the target is reached, after at least one tap, and the packing
//    before the first tap is the settled one;
//  - on 2 ranks the same taps and the same packing, to the bit, as one rank (Jacobi with a fixed
//    iteration count is rank-independent, and the packing is an exact sum);
//  - a target the taps cannot reach ends with an error naming the packing reached;
//  - a tap's gravity averages to gravity over the tap, and its weakest is g (1 - A): upward.

#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "terrain_node/config/terrain_config.h"
#include "terrain_node/coupling/bed_compaction.h"
#include "terrain_node/distributed/distributed_terrain.h"
#include "terrain_node/output/settle_statistics.h"
#include "tests/support/mpi_world.h"

namespace trackcosim::terrain {
namespace {

using test::world_rank;
using test::world_size;

// 8 x 8 spheres of 1 cm radius per layer in 0.24 x 0.24 m (cells 1.5 diameters wide), 10 layers,
// dropped into a box and settled 0.4 s: a bed about 4 diameters deep, with a sample box one
// diameter in from its walls, floor and surface.
constexpr const char* kBed = R"({
  "container": {"min": [0, 0, 0], "max": [0.24, 0.24, 0.4]},
  "material": {"friction": 0.5},
  "particles": [{"kind": "layers", "min": [0, 0], "max": [0.24, 0.24], "bottom": 0.01, "layers": 10,
                 "radius": 0.01, "gap": 0.5, "seed": 3}],
  "step_size": 1e-3,
  "end_time": 0.4,
  "solver": {"method": "jacobi", "max_iterations": 30, "max_recovery_speed": 0.5},
  "collision": {"envelope": 0.001},
  "output": {"progress_interval": 0, "packing_margin": 1}
})";

TerrainConfig bed_config() { return parse_terrain_config(kBed, "bed"); }

CompactionSettings taps_to(double packing, std::uint64_t max_taps) {
  CompactionSettings c;
  c.packing = static_cast<real>(packing);
  c.tap_acceleration = 2;
  c.tap_frequency = 20;
  c.relax_time = 0.1;
  c.max_taps = max_taps;
  return c;
}

/// The bed settled for its end_time on `comm`.
void settle(DistributedTerrain& terrain, const TerrainConfig& config) {
  for (std::uint64_t k = 0; k < config.step_count(); ++k) terrain.step();
}

double settled_packing(MPI_Comm comm) {
  const TerrainConfig config = bed_config();
  DistributedTerrain terrain(config, comm);
  settle(terrain, config);
  return measure_settled_bed(terrain, config).packing_fraction;
}

CompactionOutcome compacted(MPI_Comm comm, const CompactionSettings& c) {
  const TerrainConfig config = bed_config();
  DistributedTerrain terrain(config, comm);
  settle(terrain, config);
  return compact_bed(terrain, config, c, [] {});
}

TEST(BedCompaction, TapsTheBedToTheTargetPackingTheSameOnAnyRankCount) {
  const double settled = settled_packing(MPI_COMM_WORLD);
  ASSERT_TRUE(std::isfinite(settled));
  ASSERT_GT(settled, 0.4) << "a settled bed of spheres";
  const double target = settled + 0.01;
  const CompactionOutcome out = compacted(MPI_COMM_WORLD, taps_to(target, 30));
  EXPECT_EQ(out.packing_settled, settled);
  EXPECT_GE(out.taps, 1u);
  EXPECT_GE(out.packing, target);
  EXPECT_EQ(out.steps, out.taps * (tap_steps(taps_to(target, 30), 1e-3) + relax_steps(taps_to(target, 30), 1e-3)));
  if (world_size() > 1 && world_rank() == 0) {
    const CompactionOutcome one = compacted(MPI_COMM_SELF, taps_to(target, 30));
    EXPECT_EQ(one.taps, out.taps);
    EXPECT_EQ(one.packing, out.packing) << "the same bits on " << world_size() << " ranks as on one";
  }
}

TEST(BedCompaction, AnUnreachableTargetIsAnErrorNamingThePackingReached) {
  try {
    compacted(MPI_COMM_WORLD, taps_to(0.72, 1));
    FAIL() << "a packing of 0.72 after one tap";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("after 1 taps, short of the target 0.7200"), std::string::npos) << what;
    EXPECT_NE(what.find("reached a packing of 0."), std::string::npos) << what;
  }
}

TEST(BedCompaction, ATapsGravityAveragesToGravityAndLiftsTheBedAtItsWeakest) {
  const Vec3 g{0, 0, -9.81};
  const CompactionSettings c = taps_to(0.6, 1);
  const std::uint64_t steps = tap_steps(c, 1e-3);
  EXPECT_EQ(steps, 50u);
  EXPECT_EQ(relax_steps(c, 1e-3), 100u);
  double sum = 0, weakest = 0;
  for (std::uint64_t k = 0; k < steps; ++k) {
    const Vec3 gk = tap_gravity(g, c, k, steps);
    EXPECT_EQ(gk.x, 0);
    sum += gk.z;
    weakest = std::max(weakest, static_cast<double>(gk.z));
  }
  EXPECT_NEAR(sum / steps, -9.81, 1e-9);
  EXPECT_NEAR(weakest, 9.81 * (2 - 1), 0.02) << "g (1 - A) with A = 2: upward, the bed lifts off";
}

}  // namespace
}  // namespace trackcosim::terrain
