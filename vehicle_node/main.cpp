// vehicle_node: the tracked-vehicle program. The multibody model (bodies, joints, track,
// driver) arrives in a later issue; until then the program answers --help and --version and
// refuses every other use with a clear message and exit status 2, so that a job script that
// starts it fails at once instead of hanging a terrain waiting for its partner.

#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "cosim/version.h"

int main(int argc, char** argv) {
  CLI::App app{"trackcosim vehicle node: the tracked-vehicle multibody program (not built yet).", "vehicle_node"};
  app.set_version_flag("--version", "trackcosim vehicle_node " + std::string(trackcosim::cosim::kTrackcosimVersion));
  app.allow_extras();  // whatever else is asked, the answer is the same message below
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
  }
  std::cerr << "vehicle_node: the multibody vehicle model is not built yet (see README, \"Status\")\n";
  return 2;
}
