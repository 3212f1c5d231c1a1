#include "terrain_node/output/particle_series.h"

#include "io/output_file.h"
#include "terrain_node/output/particle_frame.h"
#include "terrain_node/output/particle_vtu_writer.h"
#include "terrain_node/output/snapshot_files.h"

namespace trackcosim::terrain {
namespace {

std::string piece_name(const std::string& stem, int rank) { return stem + "_r" + std::to_string(rank) + ".vtu"; }

}  // namespace

ParticleSeries::ParticleSeries(const DistributedTerrain& terrain, const std::filesystem::path& run_folder, bool fresh,
                               io::vtk::Encoding encoding, std::vector<io::PvdSeries::Entry> earlier)
    : folder_(run_folder / kSnapshotFolder), encoding_(encoding) {
  if (terrain.leader()) {
    io::create_output_folder(folder_);
    if (fresh) remove_old_snapshots(folder_);
    series_.emplace(run_folder / "particles.pvd", std::move(earlier));
  }
  terrain.group().barrier();  // the folder exists before any rank writes a piece into it
}

std::string ParticleSeries::frame_file(std::uint64_t step) {
  return std::string(kSnapshotFolder) + "/" + snapshot_stem(step) + ".pvtu";
}

void ParticleSeries::write(const DistributedTerrain& terrain, double time) {
  const std::uint64_t step = terrain.step_count();
  const std::string stem = snapshot_stem(step);
  const SnapshotPiece piece = terrain.snapshot_piece();
  std::vector<gpu::BodyState> states(piece.bodies.size());
  std::vector<std::uint8_t> classes(piece.bodies.size());
  for (std::size_t i = 0; i < states.size(); ++i) {
    states[i] = piece.bodies.state(i);
    classes[i] = static_cast<std::uint8_t>(piece.roles[i]);  // 0 active, 1 fixed, 2 stored
  }
  write_particles_vtu(folder_ / piece_name(stem, terrain.rank()),
                      particle_frame(piece.bodies, states, classes, terrain.contact_force_sums(piece)), encoding_);
  terrain.group().barrier();
  if (!series_) return;
  std::vector<std::string> pieces;
  for (int r = 0; r < terrain.ranks(); ++r) pieces.push_back(piece_name(stem, r));
  write_particles_pvtu(folder_ / (stem + ".pvtu"), pieces, {.state = true, .contact_force = true}, encoding_);
  series_->add(time, frame_file(step));
}

}  // namespace trackcosim::terrain
