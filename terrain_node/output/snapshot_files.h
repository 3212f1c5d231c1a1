#pragma once
// The names of particle snapshot files (a .pvtu per frame and a .vtu per rank, written by
// particle_series.h for the standalone run and the co-simulation alike), and the clean-up of an
// earlier run's frames.

#include <cstdint>
#include <filesystem>
#include <string>

namespace trackcosim::terrain {

/// The folder, beside particles.pvd, that holds the frames.
inline constexpr const char* kSnapshotFolder = "particles";

/// "step_<k>", k the terrain step in 8 digits: the stem of every file of that step's frame.
std::string snapshot_stem(std::uint64_t step);

/// Snapshots of an earlier run in the same folder would sit beside this run's without being in
/// its .pvd: removes the files of our own naming pattern (step_*.vtu, step_*.pvtu), no others.
void remove_old_snapshots(const std::filesystem::path& folder);

}  // namespace trackcosim::terrain
