#include "terrain_node/contacts/contacts_command.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "gpu/collision/collision_detector.h"
#include "io/output_file.h"
#include "runtime/thread_environment.h"
#include "terrain_node/contacts/scene_file.h"
#include "terrain_node/output/contact_csv_writer.h"
#include "terrain_node/output/contact_vtk_writer.h"

namespace trackcosim::terrain {
namespace {

struct OutputFiles {
  std::filesystem::path csv, contacts_vtp, spheres_vtp;
};

std::size_t count_bodies(const gpu::SphereShapes& spheres) {
  std::vector<gpu::GlobalId> gids = spheres.body_gid;
  std::sort(gids.begin(), gids.end());
  return static_cast<std::size_t>(std::unique(gids.begin(), gids.end()) - gids.begin());
}

const char* plural(std::size_t n, const char* one, const char* many) { return n == 1 ? one : many; }

void print_scene(const SceneFile& scene) {
  const gpu::ShapeScene& s = scene.shapes;
  const gpu::CollisionSettings& c = scene.collision;
  std::printf("scene      %zu spheres in %zu bodies, %zu %s, %zu %s\n", s.spheres.size(), count_bodies(s.spheres),
              s.planes.size(), plural(s.planes.size(), "plane", "planes"), s.boxes.size(),
              plural(s.boxes.size(), "box", "boxes"));
  std::printf("settings   envelope %g m, ", c.envelope);
  if (c.bin_size > 0)
    std::printf("bin size %g m", c.bin_size);
  else
    std::printf("bin size %g x mean sphere diameter", c.bin_size_factor);
  if (c.max_contacts_per_body_pair > 0)
    std::printf(", at most %u contacts per body pair\n", c.max_contacts_per_body_pair);
  else
    std::printf(", all contacts of a body pair kept\n");
}

void print_result(const gpu::ContactList& contacts, const gpu::CollisionStats& stats, std::size_t spheres,
                  double wall_seconds) {
  if (spheres > 0)
    std::printf("bins       %llu x %llu x %llu, size %.6g x %.6g x %.6g m, %llu with >= 2 spheres\n",
                static_cast<unsigned long long>(stats.bins_per_axis[0]),
                static_cast<unsigned long long>(stats.bins_per_axis[1]),
                static_cast<unsigned long long>(stats.bins_per_axis[2]), stats.bin_size.x, stats.bin_size.y,
                stats.bin_size.z, static_cast<unsigned long long>(stats.active_bins));
  else
    std::printf("bins       none (no spheres)\n");
  std::printf("threads    %d (OpenMP)\n", omp_get_max_threads());
  std::printf("contacts   %zu (%llu before the per-pair limit), %.3f per sphere\n", contacts.size(),
              static_cast<unsigned long long>(stats.contacts_before_reduction),
              spheres > 0 ? double(contacts.size()) / double(spheres) : 0.0);
  if (contacts.size() > 0) {
    const real deepest = *std::min_element(contacts.distance.begin(), contacts.distance.end());
    std::printf("distance   min %.6g m (%s)\n", deepest, deepest < 0 ? "deepest penetration" : "no overlap");
  }

  const double total = stats.total_seconds();
  std::printf("\n%-16s %10s %7s\n", "stage", "seconds", "share");
  for (std::size_t k = 0; k < gpu::kCollisionStageCount; ++k)
    std::printf("%-16.*s %10.6f %6.1f%%\n", static_cast<int>(gpu::kCollisionStageNames[k].size()),
                gpu::kCollisionStageNames[k].data(), stats.stage_seconds[k],
                total > 0 ? 100 * stats.stage_seconds[k] / total : 0.0);
  std::printf("%-16s %10.6f\n", "stages total", total);
  // Wall time also covers what no stage owns: validation, upload, buffer growth.
  std::printf("%-16s %10.6f\n\n", "detect (wall)", wall_seconds);
}

}  // namespace

void run_contacts_command(const ContactsOptions& options) {
  const SceneFile scene = load_scene_file(options.scene);
  // Before the pass, so that a bad --out costs no computing.
  io::create_output_folder(options.out_dir);
  const OutputFiles files{options.out_dir / "contacts.csv", options.out_dir / "contacts.vtp",
                          options.out_dir / "spheres.vtp"};
  // One process: the same default as a terrain rank (runtime/thread_choice.h), without MPI.
  omp_set_num_threads(runtime::choose_threads(runtime::read_thread_inputs(options.threads, 0)).threads);

  gpu::CollisionDetector detector(scene.collision);
  const auto start = std::chrono::steady_clock::now();
  const gpu::ContactList contacts = detector.detect(scene.shapes);
  const double wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  write_contacts_csv(files.csv, contacts);
  write_contacts_vtp(files.contacts_vtp, contacts);
  write_spheres_vtp(files.spheres_vtp, scene.shapes.spheres);

  std::printf("scene file %s\n", options.scene.string().c_str());
  print_scene(scene);
  print_result(contacts, detector.last_stats(), scene.shapes.spheres.size(), wall_seconds);
  std::printf("wrote      %s\n           %s\n           %s\n", files.csv.string().c_str(),
              files.contacts_vtp.string().c_str(), files.spheres_vtp.string().c_str());
  std::printf("contacts spheres=%zu contacts=%zu seconds=%.6f\n", scene.shapes.spheres.size(), contacts.size(),
              wall_seconds);
}

}  // namespace trackcosim::terrain
