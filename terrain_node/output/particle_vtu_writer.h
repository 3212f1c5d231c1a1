#pragma once
// Particle snapshots for ParaView as VTK XML UnstructuredGrid (.vtu): one VTK_VERTEX cell per
// sphere centre, point data radius [m], velocity [m/s], gid and, when the frame has it, state
// (UInt8: the moving patch's class). An unstructured grid (rather than PolyData) is what a
// per-rank piece of a parallel .pvtu frame is, so the distributed terrain writes the same file
// per rank (DESIGN.md, Outputs), and the .pvtu that lists the pieces declares the same arrays.
// View: Glyph filter, sphere glyph, scale by "radius" with factor 2 (docs/terrain-config.md).

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "terrain_node/output/particle_frame.h"

namespace trackcosim::terrain {

void write_particles_vtu(std::ostream& out, const ParticleFrame& frame);
/// Throws OutputError when the file cannot be written.
void write_particles_vtu(const std::filesystem::path& file, const ParticleFrame& frame);

/// The .pvtu of one frame written as pieces (.vtu files relative to the .pvtu's folder, in
/// order), each from a frame with a state array when `with_state`. Throws OutputError (file).
void write_particles_pvtu(std::ostream& out, const std::vector<std::string>& pieces, bool with_state);
void write_particles_pvtu(const std::filesystem::path& file, const std::vector<std::string>& pieces, bool with_state);

}  // namespace trackcosim::terrain
