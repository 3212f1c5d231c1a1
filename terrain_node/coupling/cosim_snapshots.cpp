#include "terrain_node/coupling/cosim_snapshots.h"

#include <string>
#include <vector>

#include "io/output_file.h"
#include "terrain_node/output/particle_frame.h"
#include "terrain_node/output/particle_vtu_writer.h"
#include "terrain_node/output/snapshot_files.h"

namespace trackcosim::terrain {
namespace {

std::string piece_name(const std::string& stem, int rank) { return stem + "_r" + std::to_string(rank) + ".vtu"; }

}  // namespace

CosimSnapshots::CosimSnapshots(const DistributedTerrain& terrain, const std::filesystem::path& folder,
                               std::uint64_t interval, real step_size, std::uint64_t coupling_start)
    : folder_(folder / kSnapshotFolder), interval_(interval), step_size_(step_size), coupling_start_(coupling_start) {
  if (terrain.leader()) {
    io::create_output_folder(folder_);
    const std::uint64_t now = terrain.step_count();
    std::vector<io::PvdSeries::Entry> earlier;
    if (now == coupling_start_) remove_old_snapshots(folder_);
    for (std::uint64_t step = coupling_start_; step < now; step += interval_)
      earlier.push_back({coupling_time(step), std::string(kSnapshotFolder) + "/" + snapshot_stem(step) + ".pvtu"});
    series_.emplace(folder / "particles.pvd", std::move(earlier));
  }
  terrain.group().barrier();  // the folder exists before any rank writes a piece into it
}

double CosimSnapshots::coupling_time(std::uint64_t step) const {
  return static_cast<double>(step - coupling_start_) * step_size_;
}

void CosimSnapshots::on_grid(const DistributedTerrain& terrain) {
  const std::uint64_t step = terrain.step_count();
  if ((step - coupling_start_) % interval_ == 0 && last_step_ != step) write(terrain);
}

void CosimSnapshots::last(const DistributedTerrain& terrain) {
  if (last_step_ != terrain.step_count()) write(terrain);
}

void CosimSnapshots::write(const DistributedTerrain& terrain) {
  const std::uint64_t step = terrain.step_count();
  const std::string stem = snapshot_stem(step);
  const SnapshotPiece piece = terrain.snapshot_piece();
  std::vector<gpu::BodyState> states(piece.bodies.size());
  std::vector<std::uint8_t> classes(piece.bodies.size());
  for (std::size_t i = 0; i < states.size(); ++i) {
    states[i] = piece.bodies.state(i);
    classes[i] = static_cast<std::uint8_t>(piece.roles[i]);  // 0 active, 1 fixed, 2 stored
  }
  write_particles_vtu(folder_ / piece_name(stem, terrain.rank()), particle_frame(piece.bodies, states, classes));
  last_step_ = step;
  terrain.group().barrier();
  if (!series_) return;
  std::vector<std::string> pieces;
  for (int r = 0; r < terrain.ranks(); ++r) pieces.push_back(piece_name(stem, r));
  write_particles_pvtu(folder_ / (stem + ".pvtu"), pieces, true);
  series_->add(coupling_time(step), std::string(kSnapshotFolder) + "/" + stem + ".pvtu");
}

}  // namespace trackcosim::terrain
