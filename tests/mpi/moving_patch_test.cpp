// The moving patch on DistributedTerrain (terrain_node/distributed/distributed_terrain_patch.cpp, docs/moving-patch.md),
// the box moved by hand, under mpiexec with 2 ranks on a slab:x split whose cut the box crosses:
//
//  - persistence (Heyn thesis 6.2.2: "the effect of the vehicle on the terrain is persistent"):
//    particles that moved while active, then were stored when the box went away, come back when
//    it returns with their pose bit-identical to the pose they had when stored; fixed and stored
//    particles do not move while the box is elsewhere;
//  - a checkpoint taken while particles are stored holds every particle and continues exactly;
//  - the whole sequence gives the same bits on rank 0 alone as on all ranks, and so does a box
//    sliding along the bed 2 mm every 2 steps with the cuts following it.

#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "terrain_node/checkpoint/terrain_checkpoint.h"
#include "terrain_node/config/terrain_config.h"
#include "terrain_node/coupling/moving_patch.h"
#include "terrain_node/distributed/distributed_terrain.h"
#include "tests/support/mpi_world.h"
#include "tests/support/state_compare.h"

namespace trackcosim::terrain {
namespace {

using test::expect_bitwise_equal;
using test::same_bits;
using test::world_rank;

// A long bed: 27 x 5 spheres per layer, 2 layers, dropped from a small gap (every sphere moves
// while it settles, which is the "disturbance" the patch must keep).
constexpr const char* kLongBed = R"({
  "container": {"min": [0, 0, 0], "max": [0.6, 0.12, 0.3]},
  "particles": [{"kind": "layers", "min": [0, 0], "max": [0.6, 0.12], "bottom": 0.015, "layers": 2,
                 "radius": 0.01, "seed": 3}],
  "step_size": 1e-3, "end_time": 0.12,
  "solver": {"method": "jacobi", "max_iterations": 25, "max_recovery_speed": 0.5},
  "collision": {"envelope": 0.001},
  "output": {"progress_interval": 0}
})";
constexpr int kSteps = 60;
constexpr real kBoundary = 0.02;  // one diameter
constexpr real kMoved = 1e-3;     // m: a particle that moved this much while active was disturbed

PatchBox box(real x_lo, real x_hi) {
  PatchBox b;
  b.x_lo = x_lo, b.x_hi = x_hi, b.boundary = kBoundary;
  return b;
}
const PatchBox kLeft = box(-1, 0.25), kRight = box(0.35, 1.6);

/// What the sequence left A, right B, left A produced (states on the leader).
struct Sequence {
  std::vector<gpu::BodyState> initial, left, right_start, right_end, back_left;
  PatchCounts left_counts, right_counts, back_counts;
  terrain::TerrainCheckpoint during_right;  ///< on the leader
};

Sequence run_sequence(const terrain::TerrainConfig& config, MPI_Comm comm) {
  DistributedTerrain terrain(config, comm, "slab:x");
  Sequence s;
  s.initial = terrain.gather_states();
  s.left_counts = terrain.apply_patch(kLeft, true);
  for (int k = 0; k < kSteps; ++k) terrain.step();
  s.left = terrain.gather_states();
  s.right_counts = terrain.apply_patch(kRight, true);
  s.right_start = terrain.gather_states();
  s.during_right = terrain.gather_checkpoint();
  for (int k = 0; k < kSteps; ++k) terrain.step();
  s.right_end = terrain.gather_states();
  s.back_counts = terrain.apply_patch(kLeft, true);
  s.back_left = terrain.gather_states();
  return s;
}

bool same_pose(const gpu::BodyState& a, const gpu::BodyState& b) {
  const std::vector<real> x = test::state_reals(a), y = test::state_reals(b);
  for (int k = 0; k < 7; ++k)
    if (!same_bits(x[k], y[k])) return false;
  return true;
}

real distance(Vec3 a, Vec3 b) {
  const Vec3 d{a.x - b.x, a.y - b.y, a.z - b.z};
  return std::sqrt(dot(d, d));
}

TEST(MovingPatch, ParticlesLeftBehindComeBackWithTheirDisturbedPoseOnAnyRankCount) {
  const terrain::TerrainConfig config = terrain::parse_terrain_config(kLongBed, "long bed");
  std::size_t particles = 0;
  for (std::size_t i = 0; i < config.bodies.size(); ++i) particles += config.bodies.motion[i] == gpu::Motion::Dynamic;
  Sequence alone;
  if (world_rank() == 0) alone = run_sequence(config, MPI_COMM_SELF);
  const Sequence split = run_sequence(config, MPI_COMM_WORLD);

  // Restart from the checkpoint taken while the right box was on: the same end of that phase.
  const std::string path = test::shared_temp_path(MPI_COMM_WORLD, "trackcosim_patch_");
  if (world_rank() == 0) terrain::write_checkpoint(path, split.during_right);
  MPI_Barrier(MPI_COMM_WORLD);
  const terrain::CheckpointShare checkpoint = terrain::read_checkpoint_share(MPI_COMM_WORLD, path);
  DistributedTerrain restarted(config, MPI_COMM_WORLD, "slab:x", &checkpoint);
  restarted.apply_patch(kRight, true);
  for (int k = 0; k < kSteps; ++k) restarted.step();
  const std::vector<gpu::BodyState> restarted_end = restarted.gather_states();
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() != 0) return;
  std::filesystem::remove(path);

  // Every particle is in exactly one class, and all three classes occur.
  for (const PatchCounts& c : {split.left_counts, split.right_counts, split.back_counts}) {
    EXPECT_EQ(c.active + c.fixed + c.stored, particles);
    EXPECT_GT(c.active, 0u);
    EXPECT_GT(c.fixed, 0u);
    EXPECT_GT(c.stored, 0u);
  }
  EXPECT_EQ(split.left_counts.reactivated, 0u);
  EXPECT_EQ(split.during_right.bodies.size(), config.bodies.size());  // stored particles included
  EXPECT_EQ(checkpoint.bed_bodies, config.bodies.size());             // and read back from the file

  // Particles active on the left, stored on the right: disturbed, stored as they were, kept
  // unchanged while stored, re-activated with that pose.
  std::size_t kept = 0, disturbed = 0, still = 0;
  const std::size_t n = split.left.size();
  ASSERT_EQ(split.back_left.size(), n);
  for (std::size_t i = 0; i < n; ++i) {
    const gpu::BodyState& at_storage = split.left[i];
    if (config.bodies.motion[i] != gpu::Motion::Dynamic) continue;  // the walls
    if (kLeft.role_of(split.initial[i].position) != PatchRole::Active) continue;
    if (kRight.role_of(at_storage.position) == PatchRole::Active) continue;
    EXPECT_TRUE(same_pose(split.right_start[i], at_storage)) << "gid " << at_storage.gid << " changed when stored";
    EXPECT_TRUE(same_pose(split.right_end[i], at_storage)) << "gid " << at_storage.gid << " moved while out";
    still += same_pose(split.right_end[i], at_storage);
    if (kRight.role_of(at_storage.position) != PatchRole::Stored) continue;
    if (kLeft.role_of(at_storage.position) != PatchRole::Active) continue;
    EXPECT_TRUE(same_pose(split.back_left[i], at_storage)) << "gid " << at_storage.gid << " re-activated elsewhere";
    kept += same_pose(split.back_left[i], at_storage);
    disturbed += distance(at_storage.position, split.initial[i].position) > kMoved;
  }
  std::printf("moving patch: classes left %llu/%llu/%llu right %llu/%llu/%llu (active/fixed/stored), "
              "%zu re-activated with their stored pose (%zu of them disturbed by > %g m), %zu still while out\n",
              (unsigned long long)split.left_counts.active, (unsigned long long)split.left_counts.fixed,
              (unsigned long long)split.left_counts.stored, (unsigned long long)split.right_counts.active,
              (unsigned long long)split.right_counts.fixed, (unsigned long long)split.right_counts.stored, kept,
              disturbed, kMoved, still);
  EXPECT_GE(kept, 50u);
  EXPECT_GE(disturbed, kept / 2) << "the particles must have moved while active for the test to mean anything";
  EXPECT_GE(split.back_counts.reactivated, kept);  // and those going from the store to the fixed layer

  expect_bitwise_equal(restarted_end, split.right_end, "restart from a checkpoint with stored particles");
  expect_bitwise_equal(split.left, alone.left, "left phase, 2 ranks vs 1");
  expect_bitwise_equal(split.right_end, alone.right_end, "right phase, 2 ranks vs 1");
  expect_bitwise_equal(split.back_left, alone.back_left, "back on the left, 2 ranks vs 1");
}

/// The box slides along the bed by 2 mm every 2 steps, the cuts following it every 10th time.
std::vector<gpu::BodyState> slide(const terrain::TerrainConfig& config, MPI_Comm comm, PatchCounts* last,
                                   std::uint64_t* reactivated) {
  DistributedTerrain terrain(config, comm, "slab:x");
  for (int k = 0; k < 100; ++k) {
    const PatchCounts c = terrain.apply_patch(box(0.002 * k, 0.2 + 0.002 * k), k % 10 == 0);
    *last = c;
    *reactivated += c.reactivated;
    terrain.step();
    terrain.step();
  }
  return terrain.gather_states();
}

TEST(MovingPatch, ASlidingBoxGivesTheSameBitsOnAnyRankCount) {
  const terrain::TerrainConfig config = terrain::parse_terrain_config(kLongBed, "long bed");
  std::vector<gpu::BodyState> alone;
  PatchCounts counts;
  std::uint64_t reactivated = 0, ignored = 0;
  if (world_rank() == 0) alone = slide(config, MPI_COMM_SELF, &counts, &ignored);
  const std::vector<gpu::BodyState> split = slide(config, MPI_COMM_WORLD, &counts, &reactivated);
  if (world_rank() != 0) return;
  EXPECT_GT(reactivated, 20u);  // the box really took particles out of the stores on its way
  EXPECT_GT(counts.stored, 0u);
  expect_bitwise_equal(split, alone, "sliding box, 2 ranks vs 1");
}

TEST(MovingPatch, ABoxOverTheWholeBedChangesNoBitEvenWhenTheCutsMove) {
  const terrain::TerrainConfig config = terrain::parse_terrain_config(kLongBed, "long bed");
  std::vector<gpu::BodyState> plain;
  if (world_rank() == 0) {
    DistributedTerrain t(config, MPI_COMM_SELF);
    for (int k = 0; k < kSteps; ++k) t.step();
    plain = t.gather_states();
  }
  DistributedTerrain t(config, MPI_COMM_WORLD, "slab:x");
  for (int k = 0; k < kSteps; ++k) {
    if (k % 2 == 0) EXPECT_EQ(t.apply_patch(box(-1, 2), true).fixed, 0u);
    t.step();
  }
  const std::vector<gpu::BodyState> patched = t.gather_states();
  if (world_rank() == 0) expect_bitwise_equal(patched, plain, "whole-bed box with cut moves vs no patch");
}

// One band per track (MovingPatchSettings::track_width): two tracks whose footprint shoes lie
// at y = 0.98..1.02 and y = -1.04..-0.96 get the bands 1.00 +- 0.15 and -1.00 +- 0.15, over the
// same x range; the top run (z = 0.5) makes neither. A grain under either track is active, one
// just beside a band is fixed (within one boundary of it), one between the tracks or beyond a
// band's ring is stored; the same box without the second band stores the left track's grains.
TEST(MovingPatch, OneBandPerTrackKeepsTheGroundBetweenTheTracksOut) {
  terrain::MovingPatchSettings settings;
  settings.ahead = 0.1, settings.behind = 0.05, settings.track_width = 0.3, settings.footprint_height = 0.1;
  const std::vector<Vec3> shoes{{0.2, 0.98, 0.03}, {0.4, 1.02, 0.03}, {0.3, -1.04, 0.04},
                                {0.5, -0.96, 0.03}, {-0.5, 1.0, 0.5},  {0.9, -1.0, 0.5}};
  const PatchBox b = MovingPatch(settings, 0.01).box_around(shoes);
  EXPECT_DOUBLE_EQ(b.x_lo, 0.15);
  EXPECT_DOUBLE_EQ(b.x_hi, 0.6);
  ASSERT_TRUE(b.has_second_band());
  EXPECT_DOUBLE_EQ(b.y_lo, -1.15);
  EXPECT_DOUBLE_EQ(b.y_hi, -0.85);
  EXPECT_DOUBLE_EQ(b.y2_lo, 0.85);
  EXPECT_DOUBLE_EQ(b.y2_hi, 1.15);
  EXPECT_EQ(b.role_of({0.3, 1.1, 0.01}), PatchRole::Active);
  EXPECT_EQ(b.role_of({0.3, -0.9, 0.01}), PatchRole::Active);
  EXPECT_EQ(b.role_of({0.3, 0.84, 0.01}), PatchRole::Fixed);    // 1 cm inside the 2 cm ring
  EXPECT_EQ(b.role_of({0.61, -1.16, 0.01}), PatchRole::Fixed);  // a corner of the ring
  EXPECT_EQ(b.role_of({0.3, 0.0, 0.01}), PatchRole::Stored);    // between the tracks
  EXPECT_EQ(b.role_of({0.3, 1.2, 0.01}), PatchRole::Stored);    // beyond the ring
  EXPECT_EQ(b.role_of({0.7, 1.0, 0.01}), PatchRole::Stored);    // ahead of the ring
  PatchBox one_band = b;
  one_band.y2_lo = std::numeric_limits<real>::infinity(), one_band.y2_hi = -one_band.y2_lo;
  EXPECT_EQ(one_band.role_of({0.3, 1.1, 0.01}), PatchRole::Stored);

  // A single track (every footprint shoe on one y): one band around it.
  const PatchBox single = MovingPatch(settings, 0.01).box_around({{0.2, 0.5, 0.03}, {0.4, 0.5, 0.03}});
  EXPECT_FALSE(single.has_second_band());
  EXPECT_DOUBLE_EQ(single.y_lo, 0.35);
  EXPECT_DOUBLE_EQ(single.y_hi, 0.65);
}

// The co-simulation side (moving_patch.h): the box around the shoes, a patch.csv row per update
// with counts that add up, the summary's means, the cuts moving every rebalance_shift of travel.
TEST(MovingPatch, FollowsTheShoesAndWritesARowPerUpdate) {
  const terrain::TerrainConfig config = terrain::parse_terrain_config(kLongBed, "long bed");
  terrain::MovingPatchSettings settings;
  settings.ahead = 0.1, settings.behind = 0.05, settings.width = 0.08, settings.rebalance_shift = 0.05;
  MovingPatch patch(settings, 0.01);
  const PatchBox b = patch.box_around({{0.2, 0.05, 0.03}, {0.25, 0.07, 0.03}});
  EXPECT_DOUBLE_EQ(b.x_lo, 0.15);
  EXPECT_DOUBLE_EQ(b.x_hi, 0.35);
  EXPECT_DOUBLE_EQ(b.y_lo, 0.02);
  EXPECT_DOUBLE_EQ(b.y_hi, 0.10);
  EXPECT_DOUBLE_EQ(b.boundary, 0.02);  // one diameter by default

  // The footprint: a track whose top run (z = 0.5) reaches further back and ahead than its
  // ground run; with footprint_height only the ground run (within 0.1 of the lowest) makes the box.
  const std::vector<Vec3> track{{0.2, 0.05, 0.03}, {0.25, 0.07, 0.05}, {-0.3, 0.06, 0.5}, {0.8, 0.06, 0.5}};
  EXPECT_DOUBLE_EQ(patch.box_around(track).x_lo, -0.35);  // every shoe by default
  settings.footprint_height = 0.1;
  const PatchBox footprint = MovingPatch(settings, 0.01).box_around(track);
  EXPECT_DOUBLE_EQ(footprint.x_lo, 0.15);
  EXPECT_DOUBLE_EQ(footprint.x_hi, 0.35);
  EXPECT_DOUBLE_EQ(footprint.y_lo, 0.02);
  EXPECT_DOUBLE_EQ(footprint.y_hi, 0.10);
  settings.footprint_height = 0;

  DistributedTerrain terrain(config, MPI_COMM_WORLD, "slab:x");
  const std::string path = test::shared_temp_path(MPI_COMM_WORLD, "trackcosim_patch_csv_") + ".csv";
  std::ofstream csv;
  if (terrain.leader()) csv.open(path), csv << MovingPatch::csv_header();
  constexpr int kUpdates = 12;
  for (int k = 0; k < kUpdates; ++k) {  // the "shoes" travel 2 cm per update
    patch.follow(terrain, {{0.1 + 0.02 * k, 0.06, 0.03}}, static_cast<std::uint64_t>(k), 0.001 * k, csv);
    terrain.step();
  }
  if (!terrain.leader()) return;
  csv.close();
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line + "\n", MovingPatch::csv_header());
  const PatchSummary& s = patch.summary();
  int rows = 0;
  double active = 0;
  while (std::getline(in, line)) {
    std::vector<double> v;
    std::stringstream fields(line);
    for (std::string f; std::getline(fields, f, ',');) v.push_back(std::stod(f));
    ASSERT_EQ(v.size(), 10u) << line;
    EXPECT_EQ(v[0], rows);
    EXPECT_NEAR(v[2], 0.05 + 0.02 * rows, 1e-12);  // x_lo = shoe x - behind
    EXPECT_EQ(v[4] + v[5] + v[6], static_cast<double>(s.particles)) << line;
    active += v[4];
    ++rows;
  }
  std::filesystem::remove(path);
  EXPECT_EQ(rows, kUpdates);
  EXPECT_EQ(s.updates, static_cast<std::uint64_t>(kUpdates));
  EXPECT_NEAR(s.active_mean, active / kUpdates, 1e-9);
  EXPECT_GT(s.stored_mean, s.active_mean);  // a 0.2 m x 0.08 m box on a 0.6 m x 0.12 m bed
  // The box rear at 0.05 + 0.02 k: the cuts move at the first update and then whenever it has
  // travelled 0.05 m since, at k = 0, 3, 6, 9 (on one rank there is nothing to move).
  EXPECT_EQ(s.cut_moves, terrain.ranks() > 1 ? 4u : 0u);
}

}  // namespace
}  // namespace trackcosim::terrain
