#include "terrain_node/coupling/cosim_snapshots.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

namespace trackcosim::terrain {

namespace {
constexpr double kDefaultFrameSeconds = 0.1;
}  // namespace

std::uint64_t cosim_snapshot_interval(const OutputSettings& output, real step_size) {
  if (output.snapshot_interval_set) return output.snapshot_interval;
  return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(kDefaultFrameSeconds / step_size)));
}

CosimSnapshots::CosimSnapshots(const DistributedTerrain& terrain, const std::filesystem::path& folder,
                               std::uint64_t interval, real step_size, std::uint64_t coupling_start,
                               io::vtk::Encoding encoding)
    : interval_(interval), step_size_(step_size), coupling_start_(coupling_start),
      series_(terrain, folder, terrain.step_count() == coupling_start, encoding,
              earlier_frames(folder, terrain.step_count())) {}

std::vector<io::PvdSeries::Entry> CosimSnapshots::earlier_frames(const std::filesystem::path& folder,
                                                                 std::uint64_t now) const {
  // Only frames on disk: the earlier run may have had no snapshots, or another interval.
  std::vector<io::PvdSeries::Entry> earlier;
  for (std::uint64_t step = coupling_start_; step < now; step += interval_)
    if (std::filesystem::exists(folder / ParticleSeries::frame_file(step)))
      earlier.push_back({coupling_time(step), ParticleSeries::frame_file(step)});
  return earlier;
}

double CosimSnapshots::coupling_time(std::uint64_t step) const {
  return static_cast<double>(step - coupling_start_) * step_size_;
}

void CosimSnapshots::before_substep(const DistributedTerrain& terrain) {
  const std::uint64_t step = terrain.step_count();
  if ((step - coupling_start_) % interval_ == 0 && last_step_ != step) write(terrain);
}

void CosimSnapshots::on_end(const DistributedTerrain& terrain, CouplingSummary& summary) {
  if (last_step_ != terrain.step_count()) write(terrain);
  summary.snapshot_frames = series_.frames();
  summary.snapshot_seconds = seconds_;
}

void CosimSnapshots::write(const DistributedTerrain& terrain) {
  const auto start = std::chrono::steady_clock::now();
  series_.write(terrain, coupling_time(terrain.step_count()));
  last_step_ = terrain.step_count();
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace trackcosim::terrain
