#include "terrain_node/output/particle_vtu_writer.h"

#include <cstdint>

#include "io/output_file.h"
#include "io/vtk_parallel.h"

namespace trackcosim::terrain {
namespace {

using io::vtk::ArrayDeclaration;
using io::vtk::Encoding;
using io::vtk::stored_type_name;

// The arrays of a particle piece, declared once: the .vtu writes them, the .pvtu declares them.
ArrayDeclaration radius_array(Encoding e) { return {"radius", stored_type_name<real>(e), 1}; }
ArrayDeclaration velocity_array(Encoding e) { return {"velocity", stored_type_name<real>(e), 3}; }
ArrayDeclaration gid_array(Encoding e) { return {"gid", stored_type_name<std::uint64_t>(e), 1}; }
ArrayDeclaration state_array(Encoding e) { return {"state", stored_type_name<std::uint8_t>(e), 1}; }
ArrayDeclaration contact_force_array(Encoding e) { return {"contact_force", stored_type_name<real>(e), 1}; }
ArrayDeclaration points_array(Encoding e) { return {"points", stored_type_name<real>(e), 3}; }

template <typename T, typename ValueAt>
void write_array(io::vtk::DatasetFile& file, const ArrayDeclaration& a, std::size_t n, ValueAt value_at) {
  file.array<T>(a.name, a.components, n, value_at);
}

}  // namespace

void write_particles_vtu(std::ostream& out, const ParticleFrame& f, Encoding e) {
  const std::size_t n = f.size();
  io::vtk::DatasetFile file(out, "UnstructuredGrid", e);
  out << "    <Piece NumberOfPoints=\"" << n << "\" NumberOfCells=\"" << n << "\">\n";
  out << "      <PointData Scalars=\"radius\" Vectors=\"velocity\">\n";
  write_array<real>(file, radius_array(e), n, [&](std::size_t i, int) { return f.radius[i]; });
  write_array<real>(file, velocity_array(e), n, [&](std::size_t i, int k) {
    return k == 0 ? f.vx[i] : k == 1 ? f.vy[i] : f.vz[i];
  });
  write_array<std::uint64_t>(file, gid_array(e), n, [&](std::size_t i, int) { return f.gid[i]; });
  if (!f.state.empty()) write_array<std::uint8_t>(file, state_array(e), n, [&](std::size_t i, int) { return f.state[i]; });
  if (!f.contact_force.empty())
    write_array<real>(file, contact_force_array(e), n, [&](std::size_t i, int) { return f.contact_force[i]; });
  out << "      </PointData>\n"
      << "      <Points>\n";
  write_array<real>(file, points_array(e), n, [&](std::size_t i, int k) { return k == 0 ? f.x[i] : k == 1 ? f.y[i] : f.z[i]; });
  out << "      </Points>\n"
      << "      <Cells>\n";
  file.array<std::int64_t>("connectivity", 1, n, [](std::size_t i, int) { return i; });
  file.array<std::int64_t>("offsets", 1, n, [](std::size_t i, int) { return i + 1; });
  file.array<std::uint8_t>("types", 1, n, [](std::size_t, int) { return io::vtk::kVertex; });
  out << "      </Cells>\n"
      << "    </Piece>\n";
  file.close();
}

void write_particles_vtu(const std::filesystem::path& path, const ParticleFrame& frame, Encoding e) {
  io::write_output_file(path, [&](std::ostream& out) { write_particles_vtu(out, frame, e); });
}

void write_particles_pvtu(std::ostream& out, const std::vector<std::string>& pieces, ParticleArrays arrays,
                          Encoding e) {
  std::vector<ArrayDeclaration> point_data{radius_array(e), velocity_array(e), gid_array(e)};
  if (arrays.state) point_data.push_back(state_array(e));
  if (arrays.contact_force) point_data.push_back(contact_force_array(e));
  io::vtk::write_punstructured_grid(out, point_data, "radius", "velocity", points_array(e), pieces);
}

void write_particles_pvtu(const std::filesystem::path& path, const std::vector<std::string>& pieces,
                          ParticleArrays arrays, Encoding e) {
  io::write_output_file(path, [&](std::ostream& out) { write_particles_pvtu(out, pieces, arrays, e); });
}

}  // namespace trackcosim::terrain
