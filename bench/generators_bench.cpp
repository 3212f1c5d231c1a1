// bench/generators: particles created per second per rank by each granular source (run it under
// mpiexec; bench/run_generators.sh drives 1 and 2 ranks at 10^5 and 10^6 particles).
//
//   mpiexec -n N generators [--particles P] [--setup-limit S]
//
// For each source (lattice, layers, heightmap PNG, elevation_grid CSV and OBJ, random_fill) a bed
// of about P spheres of radius 5 mm is described, 0.44 m wide and as long along x as P needs.
// Timed per rank: `plan` (loading the config: every rank computes every cell's count, which
// fixes the gids), `generate` (terrain::build_terrain_bodies for this rank's first box: the
// particles this rank creates; the better of two runs) and, up to S particles, `setup` (the whole DistributedTerrain
// construction: generation, the global cuts and the move of every particle to its owner).
// The slowest rank counts. Prints one parseable line per source:
//   generators source=<s> ranks=<n> particles=<p> created_per_rank=<c> plan_s=<t> generate_s=<t>
//              created_per_s_per_rank=<c/t> setup_s=<t or -> 

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "bench/bench_args.h"
#include "bench/bench_mpi.h"
#include "domain/grid_layout.h"
#include "io/gray_image.h"
#include "terrain_node/config/terrain_config.h"
#include "terrain_node/distributed/distributed_terrain.h"

namespace {

using namespace trackcosim;
using Clock = std::chrono::steady_clock;
using bench::flag;

constexpr double kWidth = 0.44;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

double slowest(double t) { return bench::max_over_ranks(t); }

std::string num(double v) {
  char text[64];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

/// A source of about `p` spheres; surfaces average 0.08 m (7 layers of pitch 0.011 m).
std::string source_json(const std::string& kind, long long p, const std::filesystem::path& dir) {
  const double per_column_area = 0.011 * 0.011, surface_layers = 7.3;
  const double length = double(p) / surface_layers * per_column_area / kWidth;
  const std::string box = "\"min\": [0, 0], \"max\": [" + num(length) + ", " + num(kWidth) + "]";
  if (kind == "lattice") {
    const double l = double(p) / (8 * 35) * 0.0125;
    return R"({"kind": "lattice", "min": [0, 0, 0], "max": [)" + num(l) + R"(, 0.4375, 0.1], "spacing": 0.0125,
               "radius": 0.005, "jitter": 0.05})";
  }
  if (kind == "layers") {
    const double l = double(p) / (8 * 40) * 0.011;
    return R"({"kind": "layers", "min": [0, 0], "max": [)" + num(l) + R"(, 0.44], "bottom": 0, "layers": 8,
               "radius": 0.005})";
  }
  if (kind == "random_fill") {
    const double l = double(p) * (4.0 / 3.0 * M_PI * 1.25e-7) / 0.2 / (kWidth * 0.1);
    return R"({"kind": "random_fill", "min": [0, 0, 0], "max": [)" + num(l) + R"(, 0.44, 0.1], "radius": 0.005,
               "gap": 0.0005, "packing": 0.2})";
  }
  if (kind == "heightmap")
    return R"({"kind": "heightmap", "file": ")" + (dir / "hills.png").string() + "\", " + box +
           R"(, "elevation": [0.06, 0.1], "bottom": 0, "radius": 0.005})";
  if (kind == "obj") {
    std::ofstream(dir / "slope.obj") << "v 0 0 0.06\nv " << length << " 0 0.1\nv " << length << " " << kWidth
                                     << " 0.1\nv 0 " << kWidth << " 0.06\nf 1 2 3 4\n";
    return R"({"kind": "elevation_grid", "file": ")" + (dir / "slope.obj").string() + R"(", "bottom": 0, "radius": 0.005})";
  }
  return R"({"kind": "elevation_grid", "file": ")" + (dir / "hills.csv").string() + "\", " + box +
         R"(, "bottom": 0, "radius": 0.005})";
}

void write_inputs(const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  io::GrayImage hills;
  hills.width = 256, hills.height = 64;
  std::ofstream csv(dir / "hills.csv");
  for (std::size_t r = 0; r < hills.height; ++r)
    for (std::size_t c = 0; c < hills.width; ++c) {
      const double v = 0.5 + 0.5 * std::sin(0.15 * double(c)) * std::cos(0.2 * double(r));
      hills.value.push_back(v);
      csv << 0.06 + 0.04 * v << (c + 1 < hills.width ? "," : "\n");
    }
  io::write_gray_png(dir / "hills.png", hills);
}

}  // namespace

constexpr char kUsage[] =
    "usage: mpiexec -n N generators [--particles P] [--setup-limit S]\n"
    "Particles created per second per rank by each granular source (bench/generators_bench.cpp).\n";

int main(int argc, char** argv) {
  trackcosim::bench::help_exits(argc, argv, kUsage);
  const bench::MpiProgram mpi(argc, argv);
  const int rank = mpi.rank, ranks = mpi.ranks;
  const long long particles = flag(argc, argv, "--particles", 100000);
  const long long setup_limit = flag(argc, argv, "--setup-limit", 200000);
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "trackcosim_generators_bench";
  if (rank == 0) write_inputs(dir);
  MPI_Barrier(MPI_COMM_WORLD);

  for (const char* kind : {"lattice", "layers", "heightmap", "csv", "obj", "random_fill"}) {
    const std::string text = R"({"end_time": 0, "step_size": 1e-3, "particles": [)" + source_json(kind, particles, dir) + "]}";
    MPI_Barrier(MPI_COMM_WORLD);
    auto t = Clock::now();
    const terrain::TerrainConfig config = terrain::parse_terrain_config(text, "bench.json", terrain::BuildBodies::FixedOnly);
    const double plan = slowest(seconds_since(t));
    const std::uint64_t total = terrain::body_count(config.scene);

    // This rank's first box, as DistributedTerrain's construction splits space.
    const domain::Aabb bounds = terrain::particle_bounds(config.scene);
    const domain::Decomposition split =
        domain::Decomposition::uniform(domain::choose_grid(domain::parse_layout("auto"), ranks, bounds), bounds);
    // The better of two runs: the first one also pays for the allocator's first touch of memory.
    std::uint64_t created = 0;
    double generate = 1e300;
    for (int run = 0; run < 2; ++run) {
      MPI_Barrier(MPI_COMM_WORLD);
      t = Clock::now();
      { const gpu::BodySet mine = terrain::build_terrain_bodies(config.scene, split.box(rank), &created); }
      generate = std::min(generate, slowest(seconds_since(t)));
    }
    std::uint64_t most = created;
    MPI_Allreduce(MPI_IN_PLACE, &most, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);

    std::string setup = "-";
    if (total <= std::uint64_t(setup_limit)) {
      MPI_Barrier(MPI_COMM_WORLD);
      t = Clock::now();
      { const terrain::DistributedTerrain terrain(config, MPI_COMM_WORLD); }
      setup = num(slowest(seconds_since(t)));
    }
    if (rank == 0)
      std::printf("generators source=%s ranks=%d particles=%llu created_per_rank=%llu plan_s=%.4f generate_s=%.4f "
                  "created_per_s_per_rank=%.4g setup_s=%s\n",
                  kind, ranks, static_cast<unsigned long long>(total), static_cast<unsigned long long>(most), plan,
                  generate, double(most) / generate, setup.c_str());
    std::fflush(stdout);
  }
  return 0;
}
