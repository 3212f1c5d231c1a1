// The co-simulation's welcome (terrain_node/coupling/shoe_proxies.h, make_welcome) is reduced over
// the ranks' particles instead of gathered: on a long bed split over all ranks it must give the
// bits of the bed seen whole. The reference is the welcome's definition computed from the
// config's own bodies (every particle's centre: min and max, the count; surface = highest
// centre + largest radius; x and y from the container). Then, with a moving patch that fixes
// and stores particles, the whole split terrain must still count every particle once and give
// the bits of rank 0 alone running the same steps.

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstring>

#include "terrain_node/config/terrain_config.h"
#include "terrain_node/coupling/shoe_proxies.h"
#include "terrain_node/distributed/distributed_terrain.h"
#include "tests/support/mpi_world.h"

namespace trackcosim::terrain {
namespace {

using test::world_rank;

// 27 x 5 spheres per layer, 2 layers: the slab cuts cross the bed along x.
constexpr const char* kLongBed = R"({
  "container": {"min": [0, 0, 0], "max": [0.6, 0.12, 0.3]},
  "particles": [{"kind": "layers", "min": [0, 0], "max": [0.6, 0.12], "bottom": 0.015, "layers": 2,
                 "radius": 0.01, "seed": 3}],
  "step_size": 1e-3, "end_time": 0.12,
  "solver": {"method": "jacobi", "max_iterations": 25, "max_recovery_speed": 0.5},
  "collision": {"envelope": 0.001},
  "output": {"progress_interval": 0}
})";

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void expect_same_welcome(const cosim::TerrainWelcome& got, const cosim::TerrainWelcome& want, const char* what) {
  EXPECT_EQ(got.particles, want.particles) << what;
  const double g[7] = {got.patch_min.x, got.patch_min.y, got.patch_min.z, got.patch_max.x,
                       got.patch_max.y, got.patch_max.z, got.surface_height};
  const double w[7] = {want.patch_min.x, want.patch_min.y, want.patch_min.z, want.patch_max.x,
                       want.patch_max.y, want.patch_max.z, want.surface_height};
  for (int k = 0; k < 7; ++k) EXPECT_TRUE(same_bits(g[k], w[k])) << what << ": field " << k << ": " << g[k] << " vs " << w[k];
}

/// The welcome's figures from the whole bed at its start, as the config builds it.
cosim::TerrainWelcome from_config(const TerrainConfig& config) {
  cosim::TerrainWelcome w;
  const gpu::BodySet& b = config.bodies;
  real largest = 0;
  for (std::size_t k = 0; k < b.sphere_radius.size(); ++k)
    if (is_particle(config.gid_ranges, b.gid[b.sphere_body[k]])) largest = std::max(largest, b.sphere_radius[k]);
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (!is_particle(config.gid_ranges, b.gid[i])) continue;
    const Vec3 p = b.state(i).position;
    if (w.particles++ == 0) w.patch_min = w.patch_max = p;
    w.patch_min = {std::min(w.patch_min.x, p.x), std::min(w.patch_min.y, p.y), std::min(w.patch_min.z, p.z)};
    w.patch_max = {std::max(w.patch_max.x, p.x), std::max(w.patch_max.y, p.y), std::max(w.patch_max.z, p.z)};
  }
  w.surface_height = w.patch_max.z + largest;
  w.patch_min.x = config.scene.container->min.x, w.patch_min.y = config.scene.container->min.y;
  w.patch_max.x = config.scene.container->max.x, w.patch_max.y = config.scene.container->max.y;
  return w;
}

/// The welcome at the start, then after 20 steps under a patch that keeps x < 0.25 active (the
/// rest fixed or stored).
struct Welcomes {
  cosim::TerrainWelcome start, patched;
};

Welcomes welcomes(const TerrainConfig& config, MPI_Comm comm) {
  DistributedTerrain terrain(config, comm, "slab:x");
  Welcomes w;
  w.start = make_welcome(terrain, config);
  PatchBox box;
  box.x_lo = -1, box.x_hi = 0.25, box.boundary = 0.02;
  terrain.apply_patch(box, true);
  for (int k = 0; k < 20; ++k) terrain.step();
  w.patched = make_welcome(terrain, config);
  return w;
}

TEST(Welcome, ReducedOverTheRanksItIsTheWholeBedsToTheBit) {
  const TerrainConfig config = parse_terrain_config(kLongBed, "long bed");
  Welcomes alone;
  if (world_rank() == 0) alone = welcomes(config, MPI_COMM_SELF);
  const Welcomes split = welcomes(config, MPI_COMM_WORLD);
  // Every rank gets the whole welcome, not only the leader.
  expect_same_welcome(split.start, from_config(config), "split over all ranks, at the start");
  if (world_rank() != 0) return;
  EXPECT_EQ(split.start.particles, 270u);
  expect_same_welcome(alone.start, from_config(config), "rank 0 alone, at the start");
  EXPECT_EQ(split.patched.particles, 270u) << "fixed and stored particles count, each once";
  expect_same_welcome(split.patched, alone.patched, "with a moving patch, split vs alone");
}

}  // namespace
}  // namespace trackcosim::terrain
