#include "cosim/particle_vtu_writer.h"

#include <cstdint>

#include "cosim/output_file.h"
#include "cosim/vtk_xml.h"

namespace trackcosim::cosim {
namespace {

constexpr std::uint8_t kVtkVertex = 1;

}  // namespace

void write_particles_vtu(std::ostream& out, const ParticleFrame& f) {
  const std::size_t n = f.size();
  vtk::begin_file(out, "UnstructuredGrid");
  out << "    <Piece NumberOfPoints=\"" << n << "\" NumberOfCells=\"" << n << "\">\n";
  out << "      <PointData Scalars=\"radius\" Vectors=\"velocity\">\n";
  vtk::write_data_array<real>(out, "radius", 1, n, [&](std::size_t i, int) { return f.radius[i]; });
  vtk::write_data_array<real>(out, "velocity", 3, n, [&](std::size_t i, int k) {
    return k == 0 ? f.vx[i] : k == 1 ? f.vy[i] : f.vz[i];
  });
  vtk::write_data_array<std::uint64_t>(out, "gid", 1, n, [&](std::size_t i, int) { return f.gid[i]; });
  out << "      </PointData>\n"
      << "      <Points>\n";
  vtk::write_data_array<real>(out, "points", 3, n, [&](std::size_t i, int k) {
    return k == 0 ? f.x[i] : k == 1 ? f.y[i] : f.z[i];
  });
  out << "      </Points>\n"
      << "      <Cells>\n";
  vtk::write_consecutive_cell_arrays(out, n, 1);
  vtk::write_data_array<std::uint8_t>(out, "types", 1, n, [](std::size_t, int) { return kVtkVertex; });
  out << "      </Cells>\n"
      << "    </Piece>\n";
  vtk::end_file(out, "UnstructuredGrid");
}

void write_particles_vtu(const std::filesystem::path& file, const ParticleFrame& frame) {
  write_output_file(file, [&](std::ostream& out) { write_particles_vtu(out, frame); });
}

}  // namespace trackcosim::cosim
