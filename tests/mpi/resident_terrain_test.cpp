// The terrain step leaves its state on the device (issue 22, docs/ccp.md "On a GPU"): a
// DistributedTerrain step copies its bodies and contacts back only when a reader asks (outputs,
// checkpoints, the multi-rank exchanges). Counted in the CPU build, where every host<->device
// copy of gpu/ goes through the same counter (gpu/memory/transfer_count.h):
//
//  - on one rank, a step that writes no output moves no array per body or per contact: a shoe
//    proxy's loads still come back (only its contacts leave the device), at under a byte per
//    body, while reading the states once is at least 13 doubles per body;
//  - on several ranks, what crosses besides the solver's messages (staged through the host)
//    grows with the cut's face, not with the bodies a rank holds;
//  - reading nothing between steps changes nothing: the states after the run and every step's
//    loads are the same bits as a run that read the states and statistics after every step,
//    on one rank and on several, and the loads equal one rank's alone (MPI_COMM_SELF).

#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "gpu/memory/transfer_count.h"
#include "terrain_node/config/terrain_config.h"
#include "terrain_node/distributed/distributed_terrain.h"
#include "tests/support/mpi_world.h"
#include "tests/support/state_compare.h"

namespace trackcosim::terrain {
namespace {

using test::expect_bitwise_equal;
using test::world_rank;
using test::world_size;

// `columns` x 40 grains of radius 1 cm per layer (pitch 2.2 cm), 4 layers: 6,400 grains with 40
// columns, gids from 5 on after the box's 5 walls.
std::string bed(int columns) {
  const std::string x = std::to_string(0.022 * columns);
  return R"({
  "container": {"min": [0, 0, 0], "max": [)" + x + R"(, 0.88, 0.4]},
  "particles": [{"kind": "layers", "min": [0, 0], "max": [)" + x + R"(, 0.88], "bottom": 0.002, "layers": 4,
                 "radius": 0.01, "seed": 11}],
  "step_size": 1e-3,
  "end_time": 0.07,
  "solver": {"method": "jacobi", "max_iterations": 20, "max_recovery_speed": 0.5},
  "collision": {"envelope": 0.001},
  "output": {"progress_interval": 0}
})";
}

constexpr gpu::GlobalId kPlate = 100000;  // above every gid of the bed

/// A kinematic plate of 3 x 3 spheres of 1.5 cm (a shoe proxy), over the bed's middle.
gpu::BodySet plate() {
  gpu::BodySet s;
  gpu::BodyDesc d;
  d.gid = kPlate;
  d.motion = gpu::Motion::Kinematic;
  d.position = {0.44, 0.44, 0.095};
  const std::uint32_t b = s.add_body(d);
  for (int i = -1; i <= 1; ++i)
    for (int j = -1; j <= 1; ++j) s.add_sphere(b, {0.025 * i, 0.025 * j, 0}, 0.015);
  return s;
}

/// The plate's pose at time t: lowered at 0.2 m/s, so it presses into the grains.
gpu::BodyState plate_at(real t) { return {kPlate, {0.44, 0.44, 0.095 - 0.2 * t}, {1, 0, 0, 0}, {0, 0, -0.2}, {0, 0, 0}}; }

struct Measured {
  std::vector<gpu::BodyState> states;           ///< on the leader
  std::vector<std::array<double, 6>> loads;      ///< per step, the plate's
  double bytes_per_step = 0;                     ///< this rank's host<->device traffic, measured steps
  double message_bytes_per_step = 0;             ///< of it, the solver's messages staged through the host
  std::uint64_t state_read_bytes = 0;            ///< one read of every state, on this rank
  std::size_t bodies = 0;                        ///< held on this rank
};

// Settles `settle` steps (reading as the mode says), then measures `measured` steps.
Measured run(MPI_Comm comm, bool read_every_step, int settle, int measured, int columns = 40) {
  const TerrainConfig config = parse_terrain_config(bed(columns), "bed");
  DistributedTerrain terrain(config, comm);
  terrain.add_everywhere_bodies(plate());
  terrain.watch_loads({kPlate});
  Measured r;
  gpu::TransferBytes start{};
  for (int k = 0; k < settle + measured; ++k) {
    if (k == settle) start = gpu::transfer_bytes();
    terrain.set_kinematic_state(plate_at(terrain.time()));
    terrain.step();
    r.loads.push_back(terrain.take_loads().at(0));
    if (read_every_step) {
      (void)terrain.global_stats();
      (void)terrain.gather_states();
    }
  }
  const gpu::TransferBytes copied = gpu::transfer_bytes() - start;
  r.bytes_per_step = double(copied.total()) / measured;
  r.message_bytes_per_step = double(copied.messages) / measured;
  const gpu::TransferBytes before_read = gpu::transfer_bytes();
  r.states = terrain.gather_states();
  r.state_read_bytes = (gpu::transfer_bytes() - before_read).to_host;
  r.bodies = terrain.owned_count();
  return r;
}

TEST(ResidentTerrain, AStepWithoutOutputMovesNoBodyArray) {
  if (world_size() > 1) GTEST_SKIP() << "several ranks: OnSeveralRanksOnlyTheFacesAndTheMessagesCross";
  const Measured quiet = run(MPI_COMM_WORLD, false, 60, 10);
  ASSERT_GT(quiet.bodies, 6000u);
  double pressed = 0;
  for (const auto& l : quiet.loads) pressed += l[2];
  ASSERT_GT(pressed, 0) << "the plate must touch the grains, so its loads come back";
  // One array of doubles over the bodies would be 8 bytes per body.
  EXPECT_LT(quiet.bytes_per_step, 1.0 * quiet.bodies) << quiet.bytes_per_step << " B per step, " << quiet.bodies
                                                      << " bodies";
  // The counter sees what does cross: reading the states is 13 doubles and a gid per body.
  EXPECT_GE(quiet.state_read_bytes, 13u * 8u * quiet.bodies);
}

// On several ranks the solver's messages cross every iteration (staged through the host), and
// so do the bodies and contacts near the cut planned on the host; nothing else. A bed three
// times as long, cut across the same face, holds about three times the bodies per rank but
// copies about the same bytes outside the messages: no array per body or per contact crosses.
TEST(ResidentTerrain, OnSeveralRanksOnlyTheFacesAndTheMessagesCross) {
  if (world_size() == 1) GTEST_SKIP() << "one rank sends no message: AStepWithoutOutputMovesNoBodyArray";
  const Measured square = run(MPI_COMM_WORLD, false, 60, 10, 40);
  const Measured long_bed = run(MPI_COMM_WORLD, false, 60, 10, 120);
  ASSERT_GT(long_bed.bodies, square.bodies + 4000) << "the long bed must hold more bodies on each rank";
  EXPECT_GT(square.message_bytes_per_step, 0) << "the solver's messages are counted";
  const double rest_square = square.bytes_per_step - square.message_bytes_per_step;
  const double rest_long = long_bed.bytes_per_step - long_bed.message_bytes_per_step;
  const double more_bodies = double(long_bed.bodies - square.bodies);
  // One array of doubles over the bodies would add 8 bytes per added body (one over the contacts,
  // three per body, more). What does grow is the faces' share: the long bed's cut meets more
  // moving grains (about 2.8 B per added body here; the runs are deterministic).
  EXPECT_LT(rest_long - rest_square, 8.0 * more_bodies)
      << "outside the messages: " << rest_square << " B per step with " << square.bodies << " bodies here, "
      << rest_long << " B with " << long_bed.bodies;
  EXPECT_GE(long_bed.state_read_bytes, 13u * 8u * long_bed.bodies);
}

TEST(ResidentTerrain, ReadingNothingBetweenStepsChangesNoBit) {
  const Measured quiet = run(MPI_COMM_WORLD, false, 40, 10);
  const Measured with_reads = run(MPI_COMM_WORLD, true, 40, 10);
  ASSERT_EQ(quiet.loads.size(), with_reads.loads.size());
  for (std::size_t k = 0; k < quiet.loads.size(); ++k)
    for (std::size_t c = 0; c < 6; ++c) EXPECT_EQ(quiet.loads[k][c], with_reads.loads[k][c]) << "step " << k << " component " << c;
  if (world_rank() != 0) return;
  expect_bitwise_equal(quiet.states, with_reads.states, "read after every step");
  if (world_size() == 1) return;
  const Measured alone = run(MPI_COMM_SELF, false, 40, 10);  // the loads are exact sums: any rank count, the same bits
  for (std::size_t k = 0; k < quiet.loads.size(); ++k)
    for (std::size_t c = 0; c < 6; ++c) EXPECT_EQ(quiet.loads[k][c], alone.loads[k][c]) << "step " << k << " component " << c;
  expect_bitwise_equal(quiet.states, alone.states, "rank 0 alone");
}

}  // namespace
}  // namespace trackcosim::terrain

