#pragma once
// terrain_node --contacts: one collision pass over a scene file. It is how a user checks a scene
// (do the shoes touch the bed? how deep are the overlaps?), looks at its contacts in ParaView and
// times the detector on real geometry. It needs no MPI, so it runs where mpirun does not.

#include <filesystem>

namespace trackcosim::terrain {

struct ContactsOptions {
  std::filesystem::path scene;                       ///< the scene file (docs/scene-format.md)
  std::filesystem::path out_dir = "output/contacts";
  int threads = 0;  ///< --threads; 0: OMP_NUM_THREADS, else the default of runtime/thread_choice.h
};

/// Loads the scene, runs the detector once, writes out_dir/contacts.csv, contacts.vtp and
/// spheres.vtp, and prints a summary on stdout whose last line is
/// `contacts spheres=<n> contacts=<c> seconds=<s>`. Bad input throws io::ConfigError,
/// io::OutputError or std::invalid_argument with a message meant for the user.
void run_contacts_command(const ContactsOptions& options);

}  // namespace trackcosim::terrain
