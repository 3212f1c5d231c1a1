// Distributed generation (terrain_node/distributed/distributed_terrain_construction.cpp): on 1, 2 and 3 ranks, each
// rank generates only the particles of its first box (the ranks' generated counts add up to the
// scene's particle count, and on several ranks each builds fewer than all), and the terrain the
// ranks then hold together is the 1-rank build, bit for bit: same gids, positions, radii,
// masses. Every particle kind is in the scene: lattice, layers, heightmap, CSV and OBJ surfaces
// with strata and a normal size distribution, a random fill and an obstacle.

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "io/gray_image.h"
#include "terrain_node/config/terrain_config.h"
#include "terrain_node/distributed/distributed_terrain.h"
#include "tests/support/mpi_world.h"
#include "tests/support/sphere_checks.h"

namespace trackcosim::terrain {
namespace {

template <typename T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

/// Input files, written by rank 0 (into a folder per rank count, so parallel ctest runs do not meet).
std::filesystem::path write_inputs() {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("trackcosim_generators_np" + std::to_string(test::world_size()));
  if (test::world_rank() == 0) {
    std::filesystem::create_directories(dir);
    io::GrayImage hill;
    hill.width = 17, hill.height = 9;
    for (std::size_t r = 0; r < hill.height; ++r)
      for (std::size_t c = 0; c < hill.width; ++c) hill.value.push_back(0.5 + 0.5 * std::sin(0.4 * double(c + r)));
    io::write_gray_png(dir / "hill.png", hill);
    std::ofstream(dir / "steps.csv") << "0.03,0.04,0.05\n0.05,0.04,0.03\n";
    std::ofstream(dir / "tilt.obj") << "v 0 0.4 0.02\nv 0.3 0.4 0.06\nv 0.3 0.6 0.06\nv 0 0.6 0.02\nf 1 2 3 4\n";
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return dir;
}

std::string scene_text(const std::filesystem::path& dir) {
  return R"({"end_time": 0, "container": {"min": [0, 0, 0], "max": [0.3, 1.0, 0.5]},
    "obstacles": [{"kind": "speed_bump", "center": [0.15, 0.1, 0], "length": 0.08, "width": 0.05, "height": 0.02}],
    "particles": [
      {"kind": "heightmap", "file": ")" + (dir / "hill.png").string() + R"(", "min": [0, 0], "max": [0.3, 0.2],
       "elevation": [0.03, 0.08], "seed": 5,
       "strata": [{"thickness": 0.02, "radius": 0.006},
                  {"radius": {"distribution": "normal", "mean": 0.004, "std": 0.0005, "min": 0.003, "max": 0.005}}]},
      {"kind": "elevation_grid", "file": ")" + (dir / "steps.csv").string() + R"(", "min": [0, 0.2], "max": [0.3, 0.4],
       "radius": [0.004, 0.005]},
      {"kind": "elevation_grid", "file": ")" + (dir / "tilt.obj").string() + R"(", "radius": 0.005},
      {"kind": "random_fill", "min": [0, 0.6, 0], "max": [0.3, 0.8, 0.1], "radius": [0.004, 0.006], "gap": 0.0005,
       "packing": 0.2, "seed": 3},
      {"kind": "lattice", "min": [0, 0.8, 0], "max": [0.3, 1.0, 0.03], "spacing": 0.0125, "radius": 0.005, "jitter": 0.05},
      {"kind": "layers", "min": [0, 0.8], "max": [0.3, 1.0], "bottom": 0.03, "layers": 2, "radius": [0.004, 0.005]}]})";
}

TEST(DistributedGenerators, RanksBuildOnlyTheirOwnAndTogetherTheOneRankScene) {
  const std::string text = scene_text(write_inputs());
  const terrain::TerrainConfig fixed = terrain::parse_terrain_config(text, "scene.json", terrain::BuildBodies::FixedOnly);
  const std::uint64_t particles = terrain::body_count(fixed.scene) - 5 - 1;  // walls, the bump
  EXPECT_EQ(fixed.bodies.size(), 6u) << "FixedOnly builds the walls and the obstacle only";

  const DistributedTerrain terrain(fixed, MPI_COMM_WORLD);
  std::uint64_t generated = terrain.generated_count(), total = 0;
  MPI_Allreduce(&generated, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(total, particles) << "every particle generated exactly once over all ranks";
  if (test::world_size() > 1) EXPECT_LT(generated, particles) << "a rank generated everything";
  EXPECT_GT(particles, 5000u);

  const terrain::TerrainCheckpoint together = terrain.gather_checkpoint();
  if (test::world_rank() != 0) return;
  const terrain::TerrainConfig one = terrain::parse_terrain_config(text, "scene.json");  // all bodies, one process
  const gpu::BodySet &got = together.bodies, &want = one.bodies;
  ASSERT_EQ(got.size(), want.size());
  EXPECT_TRUE(same_bits(got.gid, want.gid));
  EXPECT_TRUE(same_bits(got.px, want.px) && same_bits(got.py, want.py) && same_bits(got.pz, want.pz));
  EXPECT_TRUE(same_bits(got.mass, want.mass) && same_bits(got.ix, want.ix));
  EXPECT_TRUE(same_bits(got.motion, want.motion) && same_bits(got.friction, want.friction));
  EXPECT_TRUE(same_bits(got.sphere_radius, want.sphere_radius) && same_bits(got.sphere_body, want.sphere_body));
  EXPECT_EQ(got.boxes.size(), want.boxes.size());
  EXPECT_GE(test::smallest_gap(test::dynamic_spheres(got), 0.02), -1e-12) << "generated spheres overlap";
}

}  // namespace
}  // namespace trackcosim::terrain
