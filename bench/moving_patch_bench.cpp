// bench/moving_patch: the moving patch's active-particle fraction and time per coupling step
// versus vehicle speed (docs/moving-patch.md). For each speed the stand-in track of
// tests/support/kinematic_track.h drives for the same time over a bed just long enough for the
// drive (the bed grows with the speed, the box does not), once with cosim.moving_patch and once
// on the full bed. Prints a table; never fails on time.
//
//   bench/moving_patch [--drive-time 0.6] [--speeds 0.25,0.5,1,2]     (any number of MPI ranks)

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bench_args.h"
#include "terrain_node/checkpoint/terrain_checkpoint.h"
#include "terrain_node/config/terrain_config.h"
#include "terrain_node/distributed/distributed_terrain.h"
#include "tests/support/kinematic_track.h"

namespace {

using namespace trackcosim;

// The box of moving_patch_cosim_test (its forces within 5% of the full bed's there); a short settle:
// this measures the share of particles simulated and the time, not the forces.
constexpr double kAhead = 0.45, kBehind = 0.10, kSinkage = 0.005, kSettle = 0.1;

/// A 0.2 m wide bed of 3 layers of 10 mm spheres, `length` long.
std::string bed(double length) {
  std::ostringstream s;
  s << R"({"container": {"min": [0, 0, 0], "max": [)" << length << R"(, 0.2, 0.5]},
    "material": {"friction": 0.5, "density": 2600},
    "particles": [{"kind": "layers", "min": [0, 0], "max": [)" << length << R"(, 0.2], "bottom": 0, "layers": 3,
                   "radius": 0.01, "seed": 11}],
    "step_size": 1e-3, "end_time": )" << kSettle << R"(,
    "solver": {"method": "jacobi", "max_iterations": 40, "max_recovery_speed": 0.5},
    "collision": {"envelope": 0.001}, "domain": {"max_displacement": 0.01},
    "cosim": {"coupling_step": 2e-3}, "output": {"progress_interval": 0}})";
  return s.str();
}

struct Row {
  double speed = 0, length = 0;
  std::uint64_t particles = 0;
  double active = 0, fixed = 0, patch_ms = 0, full_ms = 0;
};

Row measure(double speed, double drive_time) {
  test::TrackDrive d;
  d.speed = speed;
  d.coupling_steps = static_cast<int>((d.lowering_time + drive_time) / d.coupling_step + 0.5);
  Row row;
  row.speed = speed;
  row.length = d.rear_x + (d.shoes - 1) * d.pitch + speed * drive_time + kAhead + 0.1;
  terrain::TerrainConfig full = terrain::parse_terrain_config(bed(row.length), "bench bed");
  terrain::TerrainConfig patched = full;
  patched.scene.cosim.moving_patch = terrain::MovingPatchSettings{kAhead, kBehind, 0, 0, 0};

  terrain::DistributedTerrain settle(full, MPI_COMM_WORLD);
  for (std::uint64_t k = 0; k < full.step_count(); ++k) settle.step();
  double surface = 0;
  const std::vector<gpu::BodyState> states = settle.gather_states();
  for (std::size_t i = 0; i < states.size(); ++i)
    if (full.bodies.motion[i] == gpu::Motion::Dynamic) surface = std::max(surface, states[i].position.z + 0.01);
  MPI_Bcast(&surface, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  d.bottom_z = surface - kSinkage;
  // Both runs restart from the settled bed's checkpoint (a file: the format's reader is the way in).
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "trackcosim_bench_patch.bin";
  settle.write_checkpoint(file, "");
  const terrain::CheckpointShare settled = terrain::read_checkpoint_share(MPI_COMM_WORLD, file);
  MPI_Barrier(MPI_COMM_WORLD);
  if (settle.leader()) std::filesystem::remove(file);

  terrain::DistributedTerrain moving(patched, MPI_COMM_WORLD, {}, &settled);
  const test::TrackForces p = test::drive_track(moving, patched, d);
  terrain::DistributedTerrain whole(full, MPI_COMM_WORLD, {}, &settled);
  const test::TrackForces f = test::drive_track(whole, full, d);
  if (p.summary.patch) {
    row.particles = p.summary.patch->particles;
    row.active = p.summary.patch->active_mean;
    row.fixed = p.summary.patch->fixed_mean;
  }
  const double steps = d.coupling_steps;
  row.patch_ms = 1e3 * p.summary.wall_seconds / steps;
  row.full_ms = 1e3 * f.summary.wall_seconds / steps;
  return row;
}

}  // namespace

constexpr char kUsage[] =
    "usage: moving_patch [--drive-time 0.6] [--speeds 0.25,0.5,1,2]     (any number of MPI ranks)\n"
    "The moving patch's active share and time per coupling step against vehicle speed (bench/moving_patch_bench.cpp).\n";

int main(int argc, char** argv) {
  trackcosim::bench::help_exits(argc, argv, kUsage);
  MPI_Init(&argc, &argv);
  double drive_time = 0.6;
  std::vector<double> speeds{0.25, 0.5, 1, 2};
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    if (key == "--drive-time") drive_time = std::atof(argv[i + 1]);
    if (key == "--speeds") {
      speeds.clear();
      std::stringstream list(argv[i + 1]);
      for (std::string item; std::getline(list, item, ',');) speeds.push_back(std::atof(item.c_str()));
    }
  }
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (rank == 0)
    std::printf("moving patch: track of 3 shoes, %.2f s drive, box ahead %.2f m behind %.2f m, %d terrain rank(s)\n"
                "%8s %7s %9s %11s %9s %8s %13s %12s\n",
                drive_time, kAhead, kBehind, ranks, "speed", "bed_m", "particles", "active_mean", "active_%",
                "fixed", "patch_ms/step", "full_ms/step");
  for (const double v : speeds) {
    const Row r = measure(v, drive_time);
    if (rank == 0)
      std::printf("%8.2f %7.2f %9llu %11.0f %9.1f %8.0f %13.2f %12.2f\n", r.speed, r.length,
                  static_cast<unsigned long long>(r.particles), r.active,
                  100 * r.active / static_cast<double>(std::max<std::uint64_t>(1, r.particles)), r.fixed, r.patch_ms,
                  r.full_ms);
    std::fflush(stdout);
  }
  MPI_Finalize();
  return 0;
}
