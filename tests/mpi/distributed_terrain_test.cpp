// The distributed terrain (terrain_node/distributed/distributed_terrain.h) against a single rank, run under
// mpiexec with 2, 3 and 4 ranks. The reference is the same config stepped by rank 0 alone on
// MPI_COMM_SELF inside the same test, so every comparison is between two runs of this build.
//
//  - a bed settling in a box: every body's state bitwise equal to one rank's, for slab and grid
//    layouts, with and without rebalancing every 7 steps (Jacobi, fixed iteration count), and the
//    exact kinetic-energy sum and each grain's snapshot contact force equal too; APGD, plain and
//    with rolling resistance and compliant contacts, too, with the solver's residual per step;
//  - stacks of spheres at rest: each grain's contact force is what statics says (mg alone, 5mg,
//    3mg and mg down a column of three, at least mg on top of a pyramid);
//  - a stream of spheres crossing several cuts without gravity: no id lost or held twice, the
//    particle count and the total momentum conserved, bodies really migrated;
//  - one sphere crossing the corner of a 2 x 2 grid diagonally: owned by exactly one rank at
//    every step, ending on the diagonal rank, on its straight line;
//  - a checkpoint written by 2 ranks, continued on 3: the same states as the 2-rank run that
//    went on without stopping;
//  - the checkpoint file written in slices by every rank: the same bytes as one rank's, and as
//    the one-process writer's from the gathered state; each rank reads back only a block.

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "comm/gather.h"
#include "terrain_node/checkpoint/checkpoint_share.h"
#include "terrain_node/checkpoint/terrain_checkpoint.h"
#include "terrain_node/config/terrain_config.h"
#include "terrain_node/distributed/distributed_terrain.h"
#include "tests/support/mpi_world.h"
#include "tests/support/state_compare.h"

namespace trackcosim::terrain {
namespace {

using test::world_rank;
using test::world_size;
using test::expect_bitwise_equal;
using test::same_bits;

// 10 x 10 spheres per layer in 0.22 x 0.22 m, 3 layers, dropped into a box: about 300 spheres
// with contacts across every cut of a 4-way split.
constexpr const char* kBed = R"({
  "container": {"min": [0, 0, 0], "max": [0.22, 0.22, 0.3]},
  "particles": [{"kind": "layers", "min": [0, 0], "max": [0.22, 0.22], "bottom": 0.01, "layers": 3,
                 "radius": 0.01, "seed": 7}],
  "step_size": 1e-3,
  "end_time": 0.06,
  "solver": {"method": "jacobi", "max_iterations": 25, "max_recovery_speed": 0.5},
  "collision": {"envelope": 0.001},
  "output": {"progress_interval": 0}
})";

terrain::TerrainConfig bed_config(std::uint64_t rebalance_interval = 0) {
  terrain::TerrainConfig c = terrain::parse_terrain_config(kBed, "bed");
  c.scene.domain.rebalance_interval = rebalance_interval;
  return c;
}

// A snapshot's contact force per grain (contact_force_sums): each contact is solved by one rank,
// which sends a share for a grain shown by another; exact sums make the totals one rank's bits.
struct GrainForce {
  gpu::GlobalId gid;
  real force;
};

/// Every grain's contact force sum now, gathered on rank 0 of the terrain's group by gid.
std::vector<GrainForce> gather_contact_forces(const DistributedTerrain& terrain) {
  const SnapshotPiece piece = terrain.snapshot_piece();
  const std::vector<real> sums = terrain.contact_force_sums(piece);
  std::vector<GrainForce> mine;
  for (std::size_t i = 0; i < sums.size(); ++i) mine.push_back({piece.bodies.gid[i], sums[i]});
  std::vector<GrainForce> all = comm::gather_to_leader(terrain.group(), mine);
  std::sort(all.begin(), all.end(), [](const GrainForce& a, const GrainForce& b) { return a.gid < b.gid; });
  return all;
}

std::vector<GrainForce> contact_forces_after(const terrain::TerrainConfig& config, MPI_Comm comm,
                                             const std::string& layout, std::uint64_t steps) {
  DistributedTerrain terrain(config, comm, layout);
  for (std::uint64_t k = 0; k < steps; ++k) terrain.step();
  return gather_contact_forces(terrain);
}

struct RunResult {
  std::vector<gpu::BodyState> states;  ///< on the leader
  std::vector<double> kinetic_energy;  ///< per step
  std::vector<double> residual;        ///< the solver's, per step (reduced over the ranks)
  std::vector<GrainForce> contact_forces;  ///< on the leader, after the last step
};

RunResult run(const terrain::TerrainConfig& config, MPI_Comm comm, const std::string& layout, std::uint64_t steps) {
  DistributedTerrain terrain(config, comm, layout);
  RunResult r;
  for (std::uint64_t k = 0; k < steps; ++k) {
    terrain.step();
    const gpu::StepStats stats = terrain.global_stats();
    r.kinetic_energy.push_back(stats.kinetic_energy);
    r.residual.push_back(stats.residual);
  }
  r.states = terrain.gather_states();
  r.contact_forces = gather_contact_forces(terrain);
  return r;
}

std::vector<std::string> layouts_for(int ranks) {
  std::vector<std::string> out{"auto", "slab:x", "slab:y"};
  if (ranks == 4) out.push_back("grid:2x2x1");
  return out;
}

TEST(DistributedTerrain, SettlingBedIsBitwiseTheSameAsOneRankForEveryLayout) {
  const terrain::TerrainConfig config = bed_config();
  const std::uint64_t steps = config.step_count();
  RunResult single;
  if (world_rank() == 0) single = run(config, MPI_COMM_SELF, "auto", steps);
  for (const std::string& layout : layouts_for(world_size())) {
    const RunResult split = run(config, MPI_COMM_WORLD, layout, steps);
    // The same with the cuts moved to the current quantiles every 7 steps.
    const RunResult rebalanced = run(bed_config(7), MPI_COMM_WORLD, layout, steps);
    if (world_rank() != 0) continue;
    expect_bitwise_equal(split.states, single.states, layout + " on " + std::to_string(world_size()) + " ranks");
    expect_bitwise_equal(rebalanced.states, single.states, layout + " rebalanced every 7 steps");
    ASSERT_EQ(split.kinetic_energy.size(), single.kinetic_energy.size());
    for (std::size_t k = 0; k < steps; ++k)
      EXPECT_TRUE(same_bits(split.kinetic_energy[k], single.kinetic_energy[k])) << layout << " step " << k;
    // The snapshots' contact forces too: shares of contacts solved on other ranks, added exactly.
    ASSERT_EQ(split.contact_forces.size(), single.contact_forces.size()) << layout;
    for (std::size_t i = 0; i < single.contact_forces.size(); ++i) {
      EXPECT_EQ(split.contact_forces[i].gid, single.contact_forces[i].gid) << layout;
      EXPECT_TRUE(same_bits(split.contact_forces[i].force, single.contact_forces[i].force))
          << layout << " gid " << single.contact_forces[i].gid << ": " << split.contact_forces[i].force
          << " against " << single.contact_forces[i].force;
    }
  }
  if (world_rank() == 0) {
    // The bed really fell and collided: the comparison covers contacts across the cuts.
    EXPECT_GT(single.kinetic_energy.back(), 0.0);
    EXPECT_LT(single.states[10].position.z, 0.05);
    const auto loaded = std::count_if(single.contact_forces.begin(), single.contact_forces.end(),
                                      [](const GrainForce& g) { return g.force > 0; });
    EXPECT_GE(loaded, 100) << "the bottom layer of 100 grains has landed and carries the others";
  }
}

// Rolling resistance adds rows whose reduction slots and warm-start impulses travel with their
// contacts' (docs/ccp.md): the split solve must still give one rank's bits.
TEST(DistributedTerrain, BedWithRollingResistanceIsBitwiseTheSameAsOneRank) {
  terrain::TerrainConfig config = bed_config();
  config.scene.step.solver.rolling_friction = 0.3;
  terrain::TerrainConfig rebalancing = bed_config(7);
  rebalancing.scene.step.solver.rolling_friction = 0.3;
  const std::uint64_t steps = config.step_count();
  RunResult single, plain;
  if (world_rank() == 0) {
    single = run(config, MPI_COMM_SELF, "auto", steps);
    plain = run(bed_config(), MPI_COMM_SELF, "auto", steps);
  }
  const std::string layout = world_size() == 4 ? "grid:2x2x1" : "slab:x";
  const RunResult split = run(config, MPI_COMM_WORLD, layout, steps);
  const RunResult rebalanced = run(rebalancing, MPI_COMM_WORLD, layout, steps);
  if (world_rank() != 0) return;
  expect_bitwise_equal(split.states, single.states, layout + " with rolling resistance");
  expect_bitwise_equal(rebalanced.states, single.states, layout + " with rolling resistance, rebalanced every 7 steps");
  // The rows act: the bed's spin differs from the bed without them.
  bool differs = false;
  for (std::size_t i = 0; i < single.states.size(); ++i)
    differs = differs || !same_bits(single.states[i].angular_velocity.x, plain.states[i].angular_velocity.x);
  EXPECT_TRUE(differs);
}

// APGD's decisions (the line search's L <- 2 L, the restart) compare sums over every contact
// and body; they are exact sums (math/exact_sum.h), so a split solve takes one rank's decisions
// and gives its bits, the residual included. Plain APGD, and the gravel model every shipped
// gravel runs on: rolling resistance and compliant contacts.
TEST(DistributedTerrain, ApgdBedIsBitwiseTheSameAsOneRankWithItsResiduals) {
  terrain::TerrainConfig plain = bed_config();
  plain.scene.step.solver.method = gpu::SolverMethod::Apgd;
  terrain::TerrainConfig gravel = plain;
  gravel.scene.step.solver.rolling_friction = 0.5;
  gravel.scene.step.solver.contact_stiffness = 1e6;
  gravel.scene.step.solver.contact_damping = 60;
  const std::string layout = world_size() == 4 ? "grid:2x2x1" : "slab:x";
  for (const auto& [name, config] : {std::pair{"plain APGD", plain}, std::pair{"APGD gravel", gravel}}) {
    const std::uint64_t steps = config.step_count();
    RunResult single;
    if (world_rank() == 0) single = run(config, MPI_COMM_SELF, "auto", steps);
    const RunResult split = run(config, MPI_COMM_WORLD, layout, steps);
    if (world_rank() != 0) continue;
    const std::string what = std::string(name) + " on " + std::to_string(world_size()) + " ranks";
    expect_bitwise_equal(split.states, single.states, what);
    ASSERT_EQ(split.residual.size(), single.residual.size());
    for (std::size_t k = 0; k < steps; ++k) {
      EXPECT_TRUE(same_bits(split.kinetic_energy[k], single.kinetic_energy[k])) << what << " step " << k;
      EXPECT_TRUE(same_bits(split.residual[k], single.residual[k]))
          << what << " step " << k << ": residual " << split.residual[k] << " against " << single.residual[k];
    }
    // The bed fell and the solver worked on contacts (else equal residuals would say nothing).
    EXPECT_GT(*std::max_element(single.residual.begin(), single.residual.end()), 0.0) << what;
  }
}

/// 240 spheres in a 2 m long row, moving in +x at 2-4 m/s with some spread, no gravity and no
/// walls: they collide (the faster catch up) and cross the cuts of a slab split along x.
terrain::TerrainConfig stream_config() {
  nlohmann::json spheres = nlohmann::json::array();
  for (int i = 0; i < 240; ++i) {
    const double x = 0.03 * (i % 40), y = 0.03 * ((i / 40) % 3), z = 0.03 * (i / 120);
    const double vx = 2.0 + 0.5 * ((i * 37) % 5), vy = 0.05 * ((i * 13) % 3 - 1);
    spheres.push_back({{"position", {x, y, z}}, {"radius", 0.01}, {"velocity", {vx, vy, 0.0}}});
  }
  nlohmann::json doc = {{"particles", {{{"kind", "spheres"}, {"spheres", spheres}}}},
                        {"gravity", {0, 0, 0}},
                        {"step_size", 1e-3},
                        {"end_time", 0.15},
                        {"solver", {{"method", "jacobi"}, {"max_iterations", 20}}},
                        {"collision", {{"envelope", 0.001}}},
                        {"domain", {{"layout", "slab:x"}, {"balance", false}, {"max_displacement", 0.01}}},
                        {"output", {{"progress_interval", 0}}}};
  return terrain::parse_terrain_config(doc.dump(), "stream");
}

TEST(DistributedTerrain, StreamAcrossSeveralCutsKeepsEveryParticleAndTheMomentum) {
  const terrain::TerrainConfig config = stream_config();
  DistributedTerrain terrain(config, MPI_COMM_WORLD);
  auto momentum = [](const std::vector<gpu::BodyState>& s) {
    Vec3 p{0, 0, 0};
    for (const gpu::BodyState& b : s) p = p + b.velocity;  // equal masses
    return p;
  };
  const std::vector<gpu::BodyState> start = terrain.gather_states();
  unsigned long long migrated = 0;
  for (std::uint64_t k = 0; k < config.step_count(); ++k) {
    terrain.step();
    migrated += terrain.exchange_stats().migrated_in;
    unsigned long long owned = terrain.owned_count();
    MPI_Allreduce(MPI_IN_PLACE, &owned, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    ASSERT_EQ(owned, 240u) << "step " << k;
  }
  MPI_Allreduce(MPI_IN_PLACE, &migrated, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  const std::vector<gpu::BodyState> end = terrain.gather_states();
  terrain::TerrainConfig rebalancing = config;
  rebalancing.scene.domain.balance = true;
  rebalancing.scene.domain.rebalance_interval = 10;
  const std::vector<gpu::BodyState> following_cuts =
      run(rebalancing, MPI_COMM_WORLD, "slab:x", config.step_count()).states;
  if (world_rank() != 0) return;
  ASSERT_EQ(end.size(), 240u);
  std::set<gpu::GlobalId> ids;
  for (const gpu::BodyState& b : end) ids.insert(b.gid);
  EXPECT_EQ(ids.size(), 240u) << "an id is held twice or lost";
  const Vec3 p0 = momentum(start), p1 = momentum(end);
  EXPECT_NEAR(p1.x, p0.x, 1e-9 * std::fabs(p0.x));
  EXPECT_NEAR(p1.y, p0.y, 1e-9 * std::fabs(p0.x));
  EXPECT_NEAR(p1.z, p0.z, 1e-9 * std::fabs(p0.x));
  if (world_size() > 1) EXPECT_GT(migrated, 60u) << "a quarter of the stream should cross a cut";
  // Cuts that follow the stream (rebalanced every 10 steps) hand bodies over in bulk; the
  // result must not change.
  const std::vector<gpu::BodyState> following = following_cuts;
  expect_bitwise_equal(following, end, "stream with cuts rebalanced every 10 steps");
  // Collisions happened: the fastest spheres were slowed by the ones ahead.
  double fastest = 0;
  for (const gpu::BodyState& b : end) fastest = std::max(fastest, b.velocity.x);
  EXPECT_LT(fastest, 4.0 - 1e-6);
}

// solver.csv's fastest grain: every rank gets the same speed and position, those of a fastest
// body of the gathered states (the stream has several as fast), while the spheres cross the cuts.
TEST(DistributedTerrain, FastestGrainIsTheGatheredStatesFastestOnEveryRank) {
  const terrain::TerrainConfig config = stream_config();
  DistributedTerrain terrain(config, MPI_COMM_WORLD);
  for (std::uint64_t k = 0; k < config.step_count(); ++k) {
    terrain.step();
    if (k % 10 != 0) continue;
    const DistributedTerrain::FastestGrain fastest = terrain.fastest_grain();
    double lowest[4] = {fastest.speed, fastest.position[0], fastest.position[1], fastest.position[2]};
    double highest[4] = {lowest[0], lowest[1], lowest[2], lowest[3]};
    MPI_Allreduce(MPI_IN_PLACE, lowest, 4, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, highest, 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(lowest[i], highest[i]) << "ranks disagree, step " << k << " value " << i;
    const std::vector<gpu::BodyState> states = terrain.gather_states();
    if (world_rank() != 0) continue;
    const auto speed = [](const gpu::BodyState& b) { return std::sqrt(double(dot(b.velocity, b.velocity))); };
    double top = 0;
    for (const gpu::BodyState& b : states) top = std::max(top, speed(b));
    EXPECT_NEAR(fastest.speed, top, 1e-12 * top) << "step " << k;
    const bool found = std::any_of(states.begin(), states.end(), [&](const gpu::BodyState& b) {
      return speed(b) == fastest.speed && double(b.position.x) == fastest.position[0] &&
             double(b.position.y) == fastest.position[1] && double(b.position.z) == fastest.position[2];
    });
    EXPECT_TRUE(found) << "no body of speed " << fastest.speed << " at the reported position, step " << k;
  }
}

TEST(DistributedTerrain, BodyCrossingTheCornerOfATwoByTwoGridMovesToTheDiagonalRank) {
  if (world_size() != 4) GTEST_SKIP() << "needs 4 ranks";
  // Four still spheres fix the cuts at x = y = 0.5 (balance off: equal widths over their
  // bounding box); the mover starts in rank 0's box and flies through the corner at (0.5, 0.5).
  const char* text = R"({
    "particles": [{"kind": "spheres", "spheres": [
      {"position": [0.0, 0.0, 0], "radius": 0.01},
      {"position": [1.0, 0.0, 0], "radius": 0.01},
      {"position": [0.0, 1.0, 0], "radius": 0.01},
      {"position": [1.0, 1.0, 0], "radius": 0.01},
      {"position": [0.45, 0.45, 0], "radius": 0.01, "velocity": [1, 1, 0]}]}],
    "gravity": [0, 0, 0], "step_size": 1e-3, "end_time": 0.1,
    "solver": {"method": "jacobi", "max_iterations": 5},
    "domain": {"layout": "grid:2x2x1", "balance": false, "max_displacement": 0.002},
    "output": {"progress_interval": 0}
  })";
  const terrain::TerrainConfig config = terrain::parse_terrain_config(text, "corner");
  DistributedTerrain terrain(config, MPI_COMM_WORLD);
  ASSERT_EQ(terrain.decomposition().owner_of({0.45, 0.45, 0}), 0);
  ASSERT_EQ(terrain.decomposition().owner_of({0.55, 0.55, 0}), 3);
  const gpu::GlobalId mover = 4;
  for (std::uint64_t k = 0; k < config.step_count(); ++k) {
    terrain.step();
    // gather_states lists owned bodies only: one entry means exactly one rank owns the mover.
    const std::vector<gpu::BodyState> s = terrain.gather_states({mover});
    unsigned long long owned = terrain.owned_count();
    MPI_Allreduce(MPI_IN_PLACE, &owned, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_EQ(owned, 5u) << "step " << k;
    if (world_rank() == 0) {
      ASSERT_EQ(s.size(), 1u) << "step " << k;
      const double t = double(k + 1) * 1e-3;
      EXPECT_NEAR(s[0].position.x, 0.45 + t, 1e-12);
      EXPECT_NEAR(s[0].position.y, 0.45 + t, 1e-12);
    }
  }
  unsigned long long owned = terrain.owned_count();
  std::vector<unsigned long long> per_rank(4);
  MPI_Allgather(&owned, 1, MPI_UNSIGNED_LONG_LONG, per_rank.data(), 1, MPI_UNSIGNED_LONG_LONG, MPI_COMM_WORLD);
  EXPECT_EQ(per_rank[0], 1u);  // its still sphere only
  EXPECT_EQ(per_rank[1], 1u);
  EXPECT_EQ(per_rank[2], 1u);
  EXPECT_EQ(per_rank[3], 2u);  // its still sphere and the mover
}

TEST(DistributedTerrain, CheckpointWrittenOnTwoRanksContinuesOnThreeAsWithoutTheStop) {
  if (world_size() != 3) GTEST_SKIP() << "needs 3 ranks";
  const terrain::TerrainConfig config = bed_config();
  const std::uint64_t stop = 25, steps = config.step_count();
  const std::string path = test::shared_temp_path(MPI_COMM_WORLD, "trackcosim_restart_");

  // Ranks 0 and 1: run to the end, writing the checkpoint on the way.
  MPI_Comm pair;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank() < 2 ? 0 : MPI_UNDEFINED, world_rank(), &pair);
  std::vector<gpu::BodyState> uninterrupted;
  if (pair != MPI_COMM_NULL) {
    DistributedTerrain two(config, pair, "slab:x");
    for (std::uint64_t k = 0; k < steps; ++k) {
      two.step();
      if (two.step_count() == stop) two.write_checkpoint(path, "");
    }
    uninterrupted = two.gather_states();
    MPI_Comm_free(&pair);
  }
  MPI_Barrier(MPI_COMM_WORLD);

  const terrain::CheckpointShare c = terrain::read_checkpoint_share(MPI_COMM_WORLD, path);
  ASSERT_EQ(c.step, stop);
  DistributedTerrain three(config, MPI_COMM_WORLD, "slab:y", &c);
  EXPECT_EQ(three.step_count(), stop);
  for (std::uint64_t k = stop; k < steps; ++k) three.step();
  const std::vector<gpu::BodyState> restarted = three.gather_states();
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) {
    std::filesystem::remove(path);
    expect_bitwise_equal(restarted, uninterrupted, "restart on 3 ranks of a 2-rank checkpoint");
  }
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(DistributedTerrain, CheckpointFileIsTheSameBytesOnAnyRankCountAndEachRankReadsABlock) {
  const terrain::TerrainConfig config = bed_config();
  const std::uint64_t steps = 20;
  const std::string alone_path = test::shared_temp_path(MPI_COMM_WORLD, "trackcosim_alone_");
  const std::string split_path = test::shared_temp_path(MPI_COMM_WORLD, "trackcosim_split_");
  const std::string gathered_path = test::shared_temp_path(MPI_COMM_WORLD, "trackcosim_gathered_");
  if (world_rank() == 0) {
    DistributedTerrain alone(config, MPI_COMM_SELF, "auto");
    for (std::uint64_t k = 0; k < steps; ++k) alone.step();
    alone.write_checkpoint(alone_path, "{\"note\": \"same text\"}");
  }
  DistributedTerrain split(config, MPI_COMM_WORLD, "slab:x");
  for (std::uint64_t k = 0; k < steps; ++k) split.step();
  split.write_checkpoint(split_path, "{\"note\": \"same text\"}");
  terrain::TerrainCheckpoint gathered = split.gather_checkpoint();
  gathered.config_text = "{\"note\": \"same text\"}";
  if (split.leader()) terrain::write_checkpoint(gathered_path, gathered);
  MPI_Barrier(MPI_COMM_WORLD);

  // Read back in blocks: the blocks together hold every dynamic body once, no rank all of them
  // (with more than one rank), and every rank every fixed body.
  const terrain::CheckpointShare share = terrain::read_checkpoint_share(MPI_COMM_WORLD, split_path);
  std::uint64_t dynamic = 0, fixed = 0;
  for (std::size_t i = 0; i < share.bodies.size(); ++i)
    (share.bodies.motion[i] == gpu::Motion::Dynamic ? dynamic : fixed) += 1;
  std::uint64_t all_dynamic = 0;
  MPI_Allreduce(&dynamic, &all_dynamic, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(share.step, steps);
  EXPECT_EQ(share.bed_bodies, all_dynamic + fixed);
  if (world_size() > 1) EXPECT_LT(dynamic, all_dynamic) << "rank " << world_rank() << " read every body";
  std::uint64_t warm = share.warm.size(), all_warm = 0;
  MPI_Allreduce(&warm, &all_warm, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() != 0) return;
  EXPECT_EQ(all_warm, gathered.warm_start.size());
  EXPECT_GT(all_warm, 0u);
  const std::string alone_bytes = file_bytes(alone_path), split_bytes = file_bytes(split_path);
  EXPECT_GT(alone_bytes.size(), 1000u);
  EXPECT_TRUE(alone_bytes == split_bytes) << "1 rank and " << world_size() << " ranks wrote different files";
  EXPECT_TRUE(file_bytes(gathered_path) == split_bytes) << "the one-process writer differs from the slices";
  for (const std::string& p : {alone_path, split_path, gathered_path}) std::filesystem::remove(p);
}

// At rest each grain's contact forces hold it up, and the sum of their magnitudes is what
// statics says: a lone sphere on the floor mg; in a column of three, the bottom one 3mg from the
// floor plus 2mg from above, the middle 2mg + mg, the top mg; the top of a pyramid of three, its
// two contacts at 30 degrees from the vertical, 2mg/sqrt(3) each without friction (at least its
// weight in any case). Split over two ranks (the routing of shares over more ranks is the settling
// bed's above: this test only needs a split, and more ranks on this machine's cores only wait);
// the same on one rank.
TEST(DistributedTerrain, ContactForceSumsAtRestAreWhatStaticsSays) {
  constexpr const char* kStacks = R"({
    "container": {"min": [0, 0, 0], "max": [0.24, 0.08, 0.3]},
    "material": {"friction": 0.5, "density": 2000},
    "particles": [{"kind": "spheres", "spheres": [
      {"position": [0.03, 0.04, 0.0201], "radius": 0.02},
      {"position": [0.08, 0.04, 0.0201], "radius": 0.02},
      {"position": [0.12, 0.04, 0.0201], "radius": 0.02},
      {"position": [0.10, 0.04, 0.0549], "radius": 0.02},
      {"position": [0.20, 0.04, 0.0201], "radius": 0.02},
      {"position": [0.20, 0.04, 0.0602], "radius": 0.02},
      {"position": [0.20, 0.04, 0.1003], "radius": 0.02}]}],
    "step_size": 1e-3,
    "end_time": 0.2,
    "solver": {"method": "jacobi", "max_iterations": 100, "max_recovery_speed": 0.5},
    "collision": {"envelope": 0.001},
    "output": {"progress_interval": 0}
  })";
  const terrain::TerrainConfig config = terrain::parse_terrain_config(kStacks, "stacks");
  MPI_Comm pair;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank() < 2 ? 0 : MPI_UNDEFINED, world_rank(), &pair);
  if (pair == MPI_COMM_NULL) return;
  const std::vector<GrainForce> split = contact_forces_after(config, pair, "slab:x", config.step_count());
  MPI_Comm_free(&pair);
  if (world_rank() != 0) return;
  ASSERT_EQ(split.size(), 7u);
  const real mg = 2000 * 4.0 / 3.0 * M_PI * 0.02 * 0.02 * 0.02 * 9.81;
  const auto force_of = [&](std::size_t k) { return split[k].force / mg; };  // in weights
  EXPECT_NEAR(force_of(0), 1.0, 0.01);  // alone on the floor
  EXPECT_NEAR(force_of(4), 5.0, 0.05);  // the column, bottom to top
  EXPECT_NEAR(force_of(5), 3.0, 0.03);
  EXPECT_NEAR(force_of(6), 1.0, 0.01);
  EXPECT_GE(force_of(3), 0.99);  // the pyramid's top
  EXPECT_LE(force_of(3), 2 / std::sqrt(3.0) * 1.02);
  const std::vector<GrainForce> single = contact_forces_after(config, MPI_COMM_SELF, "auto", config.step_count());
  for (std::size_t k = 0; k < 7; ++k) EXPECT_TRUE(same_bits(split[k].force, single[k].force)) << k;
}

}  // namespace
}  // namespace trackcosim::terrain
