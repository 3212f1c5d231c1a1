#include "terrain_node/output/particle_vtu_writer.h"

#include <cstdint>

#include "io/output_file.h"
#include "io/vtk_parallel.h"
#include "io/vtk_xml.h"

namespace trackcosim::terrain {
namespace {

constexpr std::uint8_t kVtkVertex = 1;

// The arrays of a particle piece, declared once: the .vtu writes them, the .pvtu declares them.
using io::vtk::type_name;
constexpr io::vtk::ArrayDeclaration kRadius{"radius", type_name<real>(), 1};
constexpr io::vtk::ArrayDeclaration kVelocity{"velocity", type_name<real>(), 3};
constexpr io::vtk::ArrayDeclaration kGid{"gid", type_name<std::uint64_t>(), 1};
constexpr io::vtk::ArrayDeclaration kState{"state", type_name<std::uint8_t>(), 1};
constexpr io::vtk::ArrayDeclaration kPoints{"points", type_name<real>(), 3};

template <typename T, typename ValueAt>
void write_array(std::ostream& out, const io::vtk::ArrayDeclaration& a, std::size_t n, ValueAt value_at) {
  io::vtk::write_data_array<T>(out, a.name, a.components, n, value_at);
}

}  // namespace

void write_particles_vtu(std::ostream& out, const ParticleFrame& f) {
  const std::size_t n = f.size();
  io::vtk::begin_file(out, "UnstructuredGrid");
  out << "    <Piece NumberOfPoints=\"" << n << "\" NumberOfCells=\"" << n << "\">\n";
  out << "      <PointData Scalars=\"" << kRadius.name << "\" Vectors=\"" << kVelocity.name << "\">\n";
  write_array<real>(out, kRadius, n, [&](std::size_t i, int) { return f.radius[i]; });
  write_array<real>(out, kVelocity, n, [&](std::size_t i, int k) {
    return k == 0 ? f.vx[i] : k == 1 ? f.vy[i] : f.vz[i];
  });
  write_array<std::uint64_t>(out, kGid, n, [&](std::size_t i, int) { return f.gid[i]; });
  if (!f.state.empty()) write_array<std::uint8_t>(out, kState, n, [&](std::size_t i, int) { return f.state[i]; });
  out << "      </PointData>\n"
      << "      <Points>\n";
  write_array<real>(out, kPoints, n, [&](std::size_t i, int k) { return k == 0 ? f.x[i] : k == 1 ? f.y[i] : f.z[i]; });
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

void write_particles_pvtu(std::ostream& out, const std::vector<std::string>& pieces, bool with_state) {
  std::vector<io::vtk::ArrayDeclaration> point_data{kRadius, kVelocity, kGid};
  if (with_state) point_data.push_back(kState);
  io::vtk::write_punstructured_grid(out, point_data, kRadius.name, kVelocity.name, kPoints, pieces);
}

void write_particles_pvtu(const std::filesystem::path& file, const std::vector<std::string>& pieces, bool with_state) {
  io::write_output_file(file, [&](std::ostream& out) { write_particles_pvtu(out, pieces, with_state); });
}

}  // namespace trackcosim::terrain
