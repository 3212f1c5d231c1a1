#pragma once
// Particle snapshots for ParaView as VTK XML UnstructuredGrid (.vtu): one VTK_VERTEX cell per
// sphere centre, point data radius [m], velocity [m/s] and gid. An unstructured grid (rather
// than PolyData) is what a per-rank piece of a parallel .pvtu frame is, so the distributed
// terrain writes the same file per rank (DESIGN.md, Outputs). View: Glyph filter, sphere glyph,
// scale by "radius" with factor 2 (docs/terrain-config.md).

#include <filesystem>
#include <ostream>

#include "terrain_node/output/particle_frame.h"

namespace trackcosim::terrain {

void write_particles_vtu(std::ostream& out, const ParticleFrame& frame);
/// Throws OutputError when the file cannot be written.
void write_particles_vtu(const std::filesystem::path& file, const ParticleFrame& frame);

}  // namespace trackcosim::terrain
