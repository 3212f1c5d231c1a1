// A config's `bodies` on several ranks (docs/terrain-config.md, "bodies"): an axial compound rod
// pressed and then turned by its load schedule, and a free tilted compound, both larger than a
// grain and placed across the cut of a slab split, dropped on a bed. Every body's state after the
// run is the same bits as rank 0 alone on MPI_COMM_SELF (Jacobi, fixed iteration count), for
// every layout, with the cuts moving every 5 steps too; the axial rod kept its x and y.

#include <gtest/gtest.h>
#include <mpi.h>

#include <string>
#include <vector>

#include "terrain_node/config/terrain_config.h"
#include "terrain_node/distributed/distributed_terrain.h"
#include "terrain_node/distributed/body_loads.h"
#include "tests/support/mpi_world.h"
#include "tests/support/state_compare.h"

namespace trackcosim::terrain {
namespace {

using test::expect_bitwise_equal;
using test::world_rank;
using test::world_size;

// 27 x 9 grains of radius 1 cm (pitch 2.2 cm), 2 layers, in 0.6 x 0.2 m; the rod (5 spheres of 1.5 cm along
// its z, 0.15 m long) stands over x = 0.3, where slab:x cuts two ranks' boxes, and reaches the bed
// in a few steps; a free L-shaped compound lands across the same cut. Gids: walls 0-4, grains
// 5-490, rod 491, block 492.
constexpr const char* kScene = R"({
  "container": {"min": [0, 0, 0], "max": [0.6, 0.2, 0.5]},
  "particles": [{"kind": "layers", "min": [0, 0], "max": [0.6, 0.2], "bottom": 0.002, "layers": 2,
                 "radius": 0.01, "seed": 3}],
  "bodies": [
    {"name": "rod", "motion": "axial", "position": [0.3, 0.1, 0.13],
     "shape": {"spheres": [[0, 0, -0.06, 0.015], [0, 0, -0.03, 0.015], [0, 0, 0, 0.015], [0, 0, 0.03, 0.015],
                           [0.02, 0, 0.06, 0.015]],
               "mass": 0.5, "inertia": [1e-3, 1e-3, 2e-4]},
     "velocity": [0, 0, -0.5],
     "loads": [{"from": 0, "force": [3, 0, -20]}, {"from": 0.02, "force": [0, 0, -20], "torque": [0.1, 0, 0.5]}]},
    {"name": "block", "position": [0.3, 0.05, 0.08], "orientation": [0.9238795325, 0.3826834324, 0, 0],
     "shape": {"spheres": [[-0.02, 0, 0, 0.012], [0.02, 0, 0, 0.012], [0.02, 0.03, 0, 0.012]],
               "mass": 0.05, "inertia": [2e-5, 3e-5, 4e-5]}}],
  "step_size": 1e-3,
  "end_time": 0.05,
  "solver": {"method": "jacobi", "max_iterations": 25, "max_recovery_speed": 0.5},
  "collision": {"envelope": 0.001},
  "domain": {"max_displacement": 0.01},
  "output": {"progress_interval": 0}
})";

std::vector<gpu::BodyState> run(const TerrainConfig& config, MPI_Comm comm, const std::string& layout) {
  DistributedTerrain terrain(config, comm, layout);
  const BodyLoadSchedule loads(config);
  for (std::uint64_t k = 0; k < config.step_count(); ++k) {
    loads.apply(terrain, terrain.time(), config.scene.step.step_size);
    terrain.step();
  }
  return terrain.gather_states();
}

TEST(DistributedBodies, AxialAndFreeCompoundsAcrossACutAreBitwiseTheSameAsOneRank) {
  TerrainConfig config = parse_terrain_config(kScene, "bodies");
  ASSERT_EQ(config.body_gids, (std::vector<gpu::GlobalId>{491, 492}));
  std::vector<gpu::BodyState> single;
  if (world_rank() == 0) single = run(config, MPI_COMM_SELF, "auto");
  for (const std::string layout : {"slab:x", "auto"})
    for (const std::uint64_t rebalance : {std::uint64_t{0}, std::uint64_t{5}}) {
      config.scene.domain.rebalance_interval = rebalance;
      const std::vector<gpu::BodyState> split = run(config, MPI_COMM_WORLD, layout);
      if (world_rank() == 0)
        expect_bitwise_equal(split, single, layout + " on " + std::to_string(world_size()) + " ranks, rebalance " +
                                                std::to_string(rebalance));
    }
  config.scene.domain.rebalance_interval = 0;
  if (world_rank() != 0) return;
  ASSERT_EQ(single.size(), 493u);
  const gpu::BodyState& rod = single[491];
  ASSERT_EQ(rod.gid, 491u);
  EXPECT_EQ(rod.position.x, 0.3);
  EXPECT_EQ(rod.position.y, 0.1);
  EXPECT_EQ(rod.velocity.x, 0.0);
  EXPECT_EQ(rod.angular_velocity.x, 0.0);
  EXPECT_LT(rod.position.z, 0.125);              // came down onto the bed (its tip from 5.5 cm to 4.6 cm)
  EXPECT_GT(rod.angular_velocity.z, 0.0);        // turned by the second piece
  EXPECT_LT(single[492].position.z, 0.079);      // the block fell
}

}  // namespace
}  // namespace trackcosim::terrain
