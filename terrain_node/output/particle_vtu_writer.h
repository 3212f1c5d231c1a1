#pragma once
// Particle snapshots for ParaView as VTK XML UnstructuredGrid (.vtu): one VTK_VERTEX cell per
// sphere centre, point data radius [m], velocity [m/s], gid, and when the frame has them, state
// (UInt8: the moving patch's class) and contact_force [N] (the sum of the magnitudes of the
// forces of the sphere's body's contacts in the last step). An unstructured grid (rather than
// PolyData) is what a per-rank piece of a parallel .pvtu frame is, so the distributed terrain
// writes the same file per rank (DESIGN.md, Outputs), and the .pvtu that lists the pieces
// declares the same arrays. Binary by default (io/vtk_xml.h, Encoding).
// View: Glyph filter, sphere glyph, scale by "radius" with factor 2 (docs/terrain-config.md).

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "io/vtk_xml.h"
#include "terrain_node/output/particle_frame.h"

namespace trackcosim::terrain {

void write_particles_vtu(std::ostream& out, const ParticleFrame& frame, io::vtk::Encoding encoding);
/// Throws OutputError when the file cannot be written.
void write_particles_vtu(const std::filesystem::path& file, const ParticleFrame& frame, io::vtk::Encoding encoding);

/// Which optional arrays the pieces of a frame hold, so that their .pvtu declares the same.
struct ParticleArrays {
  bool state = false;
  bool contact_force = false;
};

/// The .pvtu of one frame written as pieces (.vtu files relative to the .pvtu's folder, in
/// order), each holding `arrays` in `encoding`. Throws OutputError (file).
void write_particles_pvtu(std::ostream& out, const std::vector<std::string>& pieces, ParticleArrays arrays,
                          io::vtk::Encoding encoding);
void write_particles_pvtu(const std::filesystem::path& file, const std::vector<std::string>& pieces,
                          ParticleArrays arrays, io::vtk::Encoding encoding);

}  // namespace trackcosim::terrain
