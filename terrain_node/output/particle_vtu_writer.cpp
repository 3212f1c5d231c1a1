#include "terrain_node/output/particle_vtu_writer.h"

#include <cstdint>

#include "io/output_file.h"
#include "io/vtk_xml.h"

namespace trackcosim::terrain {
namespace {

constexpr std::uint8_t kVtkVertex = 1;

}  // namespace

void write_particles_vtu(std::ostream& out, const ParticleFrame& f) {
  const std::size_t n = f.size();
  io::vtk::begin_file(out, "UnstructuredGrid");
  out << "    <Piece NumberOfPoints=\"" << n << "\" NumberOfCells=\"" << n << "\">\n";
  out << "      <PointData Scalars=\"radius\" Vectors=\"velocity\">\n";
  io::vtk::write_data_array<real>(out, "radius", 1, n, [&](std::size_t i, int) { return f.radius[i]; });
  io::vtk::write_data_array<real>(out, "velocity", 3, n, [&](std::size_t i, int k) {
    return k == 0 ? f.vx[i] : k == 1 ? f.vy[i] : f.vz[i];
  });
  io::vtk::write_data_array<std::uint64_t>(out, "gid", 1, n, [&](std::size_t i, int) { return f.gid[i]; });
  out << "      </PointData>\n"
      << "      <Points>\n";
  io::vtk::write_data_array<real>(out, "points", 3, n, [&](std::size_t i, int k) {
    return k == 0 ? f.x[i] : k == 1 ? f.y[i] : f.z[i];
  });
  out << "      </Points>\n"
      << "      <Cells>\n";
  io::vtk::write_consecutive_cell_arrays(out, n, 1);
  io::vtk::write_data_array<std::uint8_t>(out, "types", 1, n, [](std::size_t, int) { return kVtkVertex; });
  out << "      </Cells>\n"
      << "    </Piece>\n";
  io::vtk::end_file(out, "UnstructuredGrid");
}

void write_particles_vtu(const std::filesystem::path& file, const ParticleFrame& frame) {
  io::write_output_file(file, [&](std::ostream& out) { write_particles_vtu(out, frame); });
}

}  // namespace trackcosim::terrain
