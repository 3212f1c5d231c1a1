// terrain_node: the granular terrain program. Today it has one mode, --contacts (one collision
// pass over a scene file); the distributed co-simulation step joins it in a later issue. This file
// only parses the command line and turns errors into one line and an exit code; each mode lives
// in its own *_command.cpp.

#include <cstdio>
#include <exception>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "cosim/version.h"
#include "terrain_node/contacts_command.h"

namespace {

constexpr int kExitError = 1;  // bad input: config, scene, output folder
constexpr int kExitUsage = 2;  // bad command line

constexpr const char* kFooter = R"(
Outputs of --contacts, in DIR:
  contacts.csv   one row per contact: gidA,gidB,shapeA,shapeB,distance,nx,ny,nz,ax,ay,az,bx,by,bz
  contacts.vtp   one line per contact from point_a to point_b (ParaView)
  spheres.vtp    sphere centres with a "radius" array (ParaView: Glyph, Sphere, scale by radius x 2)

Example:
  terrain_node --contacts configs/demo_collision.json --out output/demo --threads 4

Scene format and how to view the outputs: docs/scene-format.md.
Exit status: 0 success, 1 bad input (scene file, output folder), 2 bad command line.)";

}  // namespace

int main(int argc, char** argv) {
  using namespace trackcosim;
  CLI::App app{"trackcosim terrain node: the granular terrain of rigid spheres.", "terrain_node"};
  app.footer(kFooter);
  app.get_formatter()->column_width(44);
  app.set_version_flag("--version", "trackcosim terrain_node " + std::string(cosim::kTrackcosimVersion));

  terrain::ContactsOptions contacts;
  CLI::Option* contacts_mode =
      app.add_option("--contacts", contacts.scene,
                     "Mode: one collision pass over the scene; writes --out, prints a summary")
          ->type_name("SCENE.json");
  app.add_option("--out", contacts.out_dir, "Output folder of --contacts, created if missing")
      ->type_name("DIR")
      ->capture_default_str()
      ->needs(contacts_mode);
  app.add_option("--threads", contacts.threads, "OpenMP threads (default: OMP_NUM_THREADS, else all cores)")
      ->type_name("N")
      ->check(CLI::Range(1, 4096))
      ->needs(contacts_mode);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::cerr << "terrain_node: error: " << e.what() << " (see terrain_node --help)\n";
    return kExitUsage;
  }

  if (contacts.scene.empty()) {
    std::cerr << app.help();
    return kExitUsage;
  }
  try {
    terrain::run_contacts_command(contacts);
    return 0;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::cerr << "terrain_node: error: " << e.what() << "\n";
    return kExitError;
  }
}
