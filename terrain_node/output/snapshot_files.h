#pragma once
// The names of particle snapshot files, shared by the standalone run (one gathered .vtu per
// frame, standalone/run_folder.h) and the co-simulation (a .pvtu per frame and a .vtu per rank,
// coupling/cosim_snapshots.h), so that both series look alike in a run folder.

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
