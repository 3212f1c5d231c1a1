// terrain_node: the granular terrain program. Three modes: --contacts (one collision pass over a
// scene file), --config (a standalone granular run, e.g. settling a bed) and --config --cosim
// (serving a vehicle). This file only parses the command line and turns errors into one line and
// an exit code; each mode lives in its own *_command.cpp.

#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "comm/frame.h"
#include "comm/mpi_session.h"
#include "comm/watchdog.h"
#include "io/config_error.h"
#include "io/version.h"
#include "terrain_node/contacts/contacts_command.h"
#include "terrain_node/coupling/cosim_command.h"
#include "terrain_node/coupling/coupling_session.h"
#include "terrain_node/standalone/settle_command.h"

namespace {

// The exit statuses of docs/exit-status.md.
constexpr int kExitRunFailed = 1;  // the run failed (a body too fast for the ghost layer, a lost file)
constexpr int kExitBadInput = 2;   // a command line or config refused: nothing was run
// 3 (comm::kExitPeerLost): the vehicle or another terrain rank stopped answering
// How long the other ranks give the first one to print a failure they all met and end the job.
constexpr double kLeaderSpeaksGraceSeconds = 30;

constexpr const char* kFooter = R"(
Outputs of --config, in DIR (default output/<config stem>; docs/settling.md for settling a bed):
  run.json       program, version, threads, gid ranges, the config with every default filled in,
                 each rank's memory (resident at start-up and peak)
  probes.csv     t,gid,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz for the bodies in output.probes
  stats.csv      per step: contacts, iterations, residual, kinetic energy, max penetration,
                 wall seconds per phase (collision, prepare, solve, integrate)
  settle.json    the bed at the end: stop reason, depth, packing fraction, contacts per particle,
                 kinetic energy, rms speed, steps, time, wall time (also in run.json)
  heightmap.csv  the top surface on an x/y grid (highest sphere top per cell), and heightmap.png
  checkpoint.bin with a settle section: the settled bed, for --from-checkpoint
  particles.pvd  snapshot series (ParaView) of particles/step_<k>.pvtu, each naming one piece per
                 rank (step_<k>_r<rank>.vtu): sphere centres with radius, velocity, gid and
                 state, every output.snapshot_interval steps

Outputs of --contacts, in DIR (default output/contacts):
  contacts.csv   one row per contact: gidA,gidB,shapeA,shapeB,distance,nx,ny,nz,ax,ay,az,bx,by,bz
  contacts.vtp   one line per contact from point_a to point_b (ParaView)
  spheres.vtp    sphere centres with a "radius" array (ParaView: Glyph, Sphere, scale by radius x 2)

Examples:
  terrain_node --config configs/settle_small.json --threads 2
  terrain_node --config configs/settle_robot_terrain.json   (until at rest; writes checkpoint.bin)
  mpiexec -n 2 terrain_node --config MY_RUN.json --from-checkpoint output/settle_robot_terrain/checkpoint.bin
  terrain_node --contacts configs/demo_collision.json --out output/demo --threads 4

Formats and how to view the outputs: docs/terrain-config.md (--config), docs/scene-format.md
(--contacts).
Parallel runs: mpiexec -n N terrain_node --config X splits the terrain over N ranks (layout from
--layout, the config's domain.layout, or chosen from the bed's shape); the outputs are the same
files for any N (docs/domain-decomposition.md).

Exit status (docs/exit-status.md): 0 success, 1 the run failed, 2 bad input (command line, config
or scene file: nothing was run), 3 a peer lost (a rank made no progress for --peer-timeout, or
cosim.timeout with --cosim).)";

}  // namespace

int main(int argc, char** argv) {
  using namespace trackcosim;
  CLI::App app{"trackcosim terrain node: the granular terrain of rigid spheres.", "terrain_node"};
  app.footer(kFooter);
  app.get_formatter()->column_width(44);
  app.set_version_flag("--version", "trackcosim terrain_node " + std::string(io::kTrackcosimVersion));

  std::filesystem::path scene, config, out_dir;
  int threads = 0;
  std::string layout;
  std::filesystem::path restart, from_checkpoint;
  std::filesystem::path save_bed;
  std::uint64_t checkpoint_at = 0;
  CLI::Option* contacts_mode =
      app.add_option("--contacts", scene, "Mode: one collision pass over the scene; writes --out, prints a summary")
          ->type_name("SCENE.json");
  CLI::Option* config_mode =
      app.add_option("--config", config, "Mode: run the granular scene of a terrain config to its end time")
          ->type_name("CONFIG.json")
          ->excludes(contacts_mode);
  app.add_option("--out", out_dir,
                 "Output folder, created if missing (default: output/contacts, or output/<config stem>)")
      ->type_name("DIR");
  app.add_option("--threads", threads,
                 "OpenMP threads per rank (default: OMP_NUM_THREADS, else the cores the rank is bound to, else "
                 "the node's cores / its ranks, 1 when oversubscribed; docs/terrain-config.md)")
      ->type_name("N")
      ->check(CLI::Range(1, 4096));
  app.add_option("--layout", layout,
                 "How --config splits the terrain over the ranks: auto, slab:x|y|z or grid:PXxPYxPZ "
                 "(default: the config's domain.layout, else auto)")
      ->type_name("LAYOUT");
  CLI::Option* restart_option =
      app.add_option("--restart", restart,
                     "Continue a --config run from a checkpoint (written on any rank count); with --cosim, continue "
                     "a co-simulation that a stop signal ended, from its terrain checkpoint")
          ->type_name("CHECKPOINT");
  app.add_option("--from-checkpoint", from_checkpoint,
                 "Start a new --config or --cosim run (t = 0, fresh outputs, this config's end time, settle "
                 "criterion and outputs; --cosim skips cosim.settle_time) on the bed a checkpoint holds, e.g. a "
                 "settled one (written on any rank count)")
      ->type_name("CHECKPOINT")
      ->excludes(restart_option);
  bool cosim = false;
  app.add_flag("--cosim", cosim,
               "With --config: settle the bed, then serve a vehicle (config section cosim: transport mpi|tcp, "
               "port, coupling_step, settle_time)");
  app.add_option("--save-bed", save_bed,
                 "With --cosim: write the bed to this checkpoint once cosim.settle_time has settled it, before the "
                 "first coupling step; later runs of the same terrain start from it with --from-checkpoint "
                 "(tools/trackcosim keeps such beds: docs/settling.md)")
      ->type_name("CHECKPOINT");
  app.add_option("--checkpoint-at", checkpoint_at, "Also write DIR/checkpoint.bin after this step")
      ->type_name("STEP");
  double peer_timeout = 20;
  app.add_option("--peer-timeout", peer_timeout,
                 "--config without --cosim: a rank that finishes no step for this long (or 10 times its slowest "
                 "step, if longer) gives up on its peers and ends the job with exit status 3 (a lost node); "
                 "0: never (default 20; --cosim uses cosim.timeout)")
      ->type_name("SECONDS")
      ->check(CLI::NonNegativeNumber);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::cerr << std::string("terrain_node: error: ") + e.what() + " (see terrain_node --help)\n";
    return kExitBadInput;
  }

  if (contacts_mode->count() == 0 && config_mode->count() == 0) {
    std::cerr << app.help();
    return kExitBadInput;
  }
  try {
    if (config_mode->count() > 0 && cosim) {
      const terrain::CosimOptions options{config, out_dir, threads, layout, restart, from_checkpoint, save_bed};
      terrain::run_cosim_command(options);
    } else if (config_mode->count() > 0) {
      const terrain::SettleOptions options{config,          out_dir,       threads,     layout,
                                           restart,         from_checkpoint, checkpoint_at, peer_timeout};
      terrain::run_settle_command(options);
    } else {
      terrain::ContactsOptions contacts;
      contacts.scene = scene;
      if (!out_dir.empty()) contacts.out_dir = out_dir;
      contacts.threads = threads;
      terrain::run_contacts_command(contacts);
    }
    return 0;
  } catch (const std::exception& e) {
    // Bad input, and the leader's failures it shares with every rank (a lost vehicle), fail on
    // every rank alike: the terrain's first rank speaks for all (in a co-simulation that is world
    // rank 1 or later: the vehicle is world rank 0). Anything else may be one rank's alone (a
    // body too fast for the ghost layer): that rank speaks.
    const int rank = comm::program_rank();
    const auto* shared = dynamic_cast<const terrain::LeaderFailure*>(&e);
    const bool config_refused = dynamic_cast<const io::ConfigError*>(&e) != nullptr;
    const bool every_rank_alike = config_refused || shared != nullptr;
    const bool peer_lost = dynamic_cast<const comm::ChannelError*>(&e) != nullptr || (shared && shared->peer_lost());
    std::fflush(stdout);
    // One write: std::cerr sends every << apart, and another rank's abort banner (printed by
    // mpirun, on the same stream) would land between the pieces of the line.
    if (rank == 0 || !every_rank_alike)
      std::cerr << "terrain_node: error: " + (rank > 0 ? "rank " + std::to_string(rank) + ": " : std::string()) +
                       e.what() + "\n";
    const int code = peer_lost ? comm::kExitPeerLost : config_refused ? kExitBadInput : kExitRunFailed;
    // A failure of every rank alike is said by the first one: the others must not end the job
    // before its line is out (under load they did, and the job ended with no error line).
    return every_rank_alike ? comm::abort_all_after_the_leader(code, rank == 0, kLeaderSpeaksGraceSeconds)
                            : comm::abort_all_or_return(code);
  }
}
