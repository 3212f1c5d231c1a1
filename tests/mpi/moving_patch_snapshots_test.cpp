// Particle snapshots of a co-simulation with a moving patch (terrain_node/coupling/cosim_snapshots.h),
// on 2 terrain ranks with the kinematic track of tests/support/kinematic_track.h on a 1.2 m bed,
// whose box leaves particles of all three classes: each frame's pieces together hold every
// particle exactly once, and their state arrays count as many active (0), fixed (1) and stored
// (2) particles as patch.csv's row of the frame's coupling step. A stored particle lives in its
// rank's store, outside the solver, and is still in that rank's piece.

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "terrain_node/config/terrain_config.h"
#include "terrain_node/distributed/distributed_terrain.h"
#include "tests/support/kinematic_track.h"
#include "tests/support/mpi_world.h"
#include "tests/support/state_compare.h"
#include "tests/support/vtk_scan.h"

namespace trackcosim::terrain {
namespace {

// 60 x 10 spheres per layer, 2 layers, dropped from their lattice as the track drives on.
constexpr const char* kBed = R"({
  "container": {"min": [0, 0, 0], "max": [1.2, 0.2, 0.5]},
  "material": {"friction": 0.5, "density": 2600},
  "particles": [{"kind": "layers", "min": [0, 0], "max": [1.2, 0.2], "bottom": 0, "layers": 2,
                 "radius": 0.01, "seed": 11}],
  "step_size": 1e-3, "end_time": 0,
  "solver": {"method": "jacobi", "max_iterations": 20, "max_recovery_speed": 0.5},
  "collision": {"envelope": 0.001},
  "domain": {"max_displacement": 0.01},
  "cosim": {"coupling_step": 2e-3, "moving_patch": {"ahead": 0.2, "behind": 0.1}},
  "output": {"progress_interval": 0, "snapshot_interval": 10}
})";
constexpr int kCouplingSteps = 20;  // 40 terrain steps: frames at 0, 10, 20, 30 and the last, 40
constexpr int kSubsteps = 2;

using test::vtk_scan::read_text;

/// The values of the integer <DataArray Name="name"> of a .vtu (binary or ASCII).
std::vector<std::uint64_t> array_values(const std::string& vtu, const std::string& name) {
  std::vector<std::uint64_t> out;
  for (const double v : test::vtk_scan::array_values(vtu, name)) out.push_back(static_cast<std::uint64_t>(v));
  return out;
}

/// The values of attribute `key` in every element of `text` that has it, in order.
std::vector<std::string> attributes(const std::string& text, const std::string& key) {
  std::vector<std::string> out;
  for (std::size_t at = text.find(key + "=\""); at != std::string::npos; at = text.find(key + "=\"", at + 1)) {
    const std::size_t begin = at + key.size() + 2;
    out.push_back(text.substr(begin, text.find('"', begin) - begin));
  }
  return out;
}

/// patch.csv's active, fixed and stored columns, one row per coupling step.
std::vector<std::array<std::uint64_t, 3>> patch_rows(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);  // step,t,x_lo,x_hi,active,fixed,stored,...
  std::vector<std::array<std::uint64_t, 3>> rows;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::vector<std::string> f;
    for (std::string v; std::getline(fields, v, ',');) f.push_back(v);
    rows.push_back({std::stoull(f[4]), std::stoull(f[5]), std::stoull(f[6])});
  }
  return rows;
}

TEST(MovingPatchSnapshots, EachFrameHoldsEveryParticleOnceWithPatchCsvsClasses) {
  const TerrainConfig config = parse_terrain_config(kBed, "patch snapshot bed");
  const std::filesystem::path dir = test::shared_temp_path(MPI_COMM_WORLD, "trackcosim_patch_snapshots_");
  if (test::world_rank() == 0) std::filesystem::create_directories(dir);
  MPI_Barrier(MPI_COMM_WORLD);
  test::TrackDrive d;
  d.bottom_z = 0.015;
  d.coupling_steps = kCouplingSteps;
  DistributedTerrain terrain(config, MPI_COMM_WORLD, "slab:x");
  test::drive_track(terrain, config, d, dir);
  MPI_Barrier(MPI_COMM_WORLD);
  if (test::world_rank() != 0) return;

  const auto rows = patch_rows(dir / "patch.csv");
  ASSERT_EQ(rows.size(), static_cast<std::size_t>(kCouplingSteps));
  const std::string pvd = read_text(dir / "particles.pvd");
  const std::vector<std::string> times = attributes(pvd, "timestep"), files = attributes(pvd, "file");
  ASSERT_EQ(files.size(), 5u) << pvd;
  std::array<bool, 3> seen{};
  for (std::size_t f = 0; f < files.size(); ++f) {
    const std::uint64_t step = 10 * f;  // the coupling started at terrain step 0 (no settling)
    EXPECT_EQ(files[f], "particles/step_" + std::string(8 - std::to_string(step).size(), '0') + std::to_string(step) + ".pvtu");
    EXPECT_NEAR(std::stod(times[f]), static_cast<double>(step) * 1e-3, 1e-12);
    const std::string pvtu = read_text(dir / files[f]);
    const std::vector<std::string> pieces = attributes(pvtu, "Source");
    ASSERT_EQ(pieces.size(), 2u) << pvtu;
    std::set<std::uint64_t> gids;
    std::array<std::uint64_t, 3> counts{};
    std::size_t points = 0;
    for (const std::string& piece : pieces) {
      const std::string vtu = read_text(dir / "particles" / piece);
      const std::vector<std::uint64_t> gid = array_values(vtu, "gid"), state = array_values(vtu, "state");
      ASSERT_EQ(gid.size(), state.size()) << piece;
      points += gid.size();
      gids.insert(gid.begin(), gid.end());
      for (const std::uint64_t s : state) {
        ASSERT_LT(s, 3u) << piece;
        ++counts[s];
      }
    }
    // The classes of the last follow: a frame before a coupling step's sub-steps has that
    // step's; the last frame, after the last step, the last step's.
    const std::size_t row = std::min<std::size_t>(step / kSubsteps, rows.size() - 1);
    const std::uint64_t particles = rows[row][0] + rows[row][1] + rows[row][2];
    EXPECT_EQ(points, particles) << "frame " << files[f];
    EXPECT_EQ(gids.size(), points) << "a particle appears twice in " << files[f];
    EXPECT_EQ(counts, rows[row]) << "frame " << files[f] << " against patch.csv's row of coupling step " << row;
    for (int c = 0; c < 3; ++c) seen[c] = seen[c] || counts[c] > 0;
  }
  EXPECT_TRUE(seen[0] && seen[1] && seen[2]) << "the box should leave active, fixed and stored particles";
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace trackcosim::terrain
