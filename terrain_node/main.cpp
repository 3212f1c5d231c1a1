// terrain_node: the granular terrain program. Today it has two modes, --contacts (one collision
// pass over a scene file) and --config (a standalone granular run, e.g. settling a bed); the
// distributed co-simulation step joins them in a later issue. This file only parses the command
// line and turns errors into one line and an exit code; each mode lives in its own *_command.cpp.

#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "cosim/version.h"
#include "terrain_node/contacts_command.h"
#include "terrain_node/settle_command.h"

namespace {

constexpr int kExitError = 1;  // bad input: config, scene, output folder
constexpr int kExitUsage = 2;  // bad command line

constexpr const char* kFooter = R"(
Outputs of --config, in DIR (default output/<config stem>):
  run.json       program, version, threads, gid ranges, the config with every default filled in
  probes.csv     t,gid,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz for the bodies in output.probes
  stats.csv      per step: contacts, iterations, residual, kinetic energy, max penetration,
                 wall seconds per phase (collision, prepare, solve, integrate)
  particles.pvd  snapshot series (ParaView) of particles/step_<k>.vtu: sphere centres with
                 radius, velocity and gid, every output.snapshot_interval steps

Outputs of --contacts, in DIR (default output/contacts):
  contacts.csv   one row per contact: gidA,gidB,shapeA,shapeB,distance,nx,ny,nz,ax,ay,az,bx,by,bz
  contacts.vtp   one line per contact from point_a to point_b (ParaView)
  spheres.vtp    sphere centres with a "radius" array (ParaView: Glyph, Sphere, scale by radius x 2)

Examples:
  terrain_node --config configs/settle_small.json --threads 2
  terrain_node --contacts configs/demo_collision.json --out output/demo --threads 4

Formats and how to view the outputs: docs/terrain-config.md (--config), docs/scene-format.md
(--contacts).
Exit status: 0 success, 1 bad input (config or scene file, output folder), 2 bad command line.)";

}  // namespace

int main(int argc, char** argv) {
  using namespace trackcosim;
  CLI::App app{"trackcosim terrain node: the granular terrain of rigid spheres.", "terrain_node"};
  app.footer(kFooter);
  app.get_formatter()->column_width(44);
  app.set_version_flag("--version", "trackcosim terrain_node " + std::string(cosim::kTrackcosimVersion));

  std::filesystem::path scene, config, out_dir;
  int threads = 0;
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
  app.add_option("--threads", threads, "OpenMP threads (default: OMP_NUM_THREADS, else all cores)")
      ->type_name("N")
      ->check(CLI::Range(1, 4096));

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::cerr << "terrain_node: error: " << e.what() << " (see terrain_node --help)\n";
    return kExitUsage;
  }

  if (contacts_mode->count() == 0 && config_mode->count() == 0) {
    std::cerr << app.help();
    return kExitUsage;
  }
  try {
    if (config_mode->count() > 0) {
      terrain::run_settle_command({config, out_dir, threads});
    } else {
      terrain::ContactsOptions contacts;
      contacts.scene = scene;
      if (!out_dir.empty()) contacts.out_dir = out_dir;
      contacts.threads = threads;
      terrain::run_contacts_command(contacts);
    }
    return 0;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::cerr << "terrain_node: error: " << e.what() << "\n";
    return kExitError;
  }
}
