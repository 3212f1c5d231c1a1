#include "terrain_node/output/contact_vtk_writer.h"

#include "io/output_file.h"
#include "io/vtk_xml.h"

namespace trackcosim::terrain {
namespace {

/// <Piece> opening tag of a PolyData file holding only vertices or only lines.
void begin_piece(std::ostream& out, std::size_t points, std::size_t verts, std::size_t lines) {
  out << "    <Piece NumberOfPoints=\"" << points << "\" NumberOfVerts=\"" << verts << "\" NumberOfLines=\"" << lines
      << "\" NumberOfStrips=\"0\" NumberOfPolys=\"0\">\n";
}

/// The connectivity/offsets pair of a cell block where cell i is points [i*n, (i+1)*n).
void write_consecutive_cells(std::ostream& out, std::string_view block, std::size_t cells,
                             std::uint64_t points_per_cell) {
  out << "      <" << block << ">\n";
  io::vtk::write_consecutive_cell_arrays(out, cells, points_per_cell);
  out << "      </" << block << ">\n";
}

}  // namespace

void write_contacts_vtp(std::ostream& out, const gpu::ContactList& c) {
  const std::size_t n = c.size();
  io::vtk::begin_file(out, "PolyData");
  begin_piece(out, 2 * n, 0, n);
  // Points 2i and 2i+1 are contact i's point on A and point on B.
  out << "      <Points>\n";
  io::vtk::write_data_array<real>(out, "points", 3, 2 * n, [&](std::size_t p, int k) {
    const Vec3 v = p % 2 == 0 ? c.point_a(p / 2) : c.point_b(p / 2);
    return k == 0 ? v.x : k == 1 ? v.y : v.z;
  });
  out << "      </Points>\n";
  write_consecutive_cells(out, "Lines", n, 2);
  const auto normal = [&c](std::size_t i, int k) { return k == 0 ? c.nx[i] : k == 1 ? c.ny[i] : c.nz[i]; };
  // The same contact seen from each end, so that point filters (Glyph arrows along `normal`,
  // Threshold on `gid`) need no Cell Centers first. Point 2i is on body A, 2i+1 on body B.
  out << "      <PointData Scalars=\"distance\" Vectors=\"normal\">\n";
  io::vtk::write_data_array<real>(out, "distance", 1, 2 * n, [&](std::size_t p, int) { return c.distance[p / 2]; });
  io::vtk::write_data_array<real>(out, "normal", 3, 2 * n, [&](std::size_t p, int k) { return normal(p / 2, k); });
  io::vtk::write_data_array<std::uint64_t>(out, "gid", 1, 2 * n, [&](std::size_t p, int) {
    return p % 2 == 0 ? c.gid_a[p / 2] : c.gid_b[p / 2];
  });
  io::vtk::write_data_array<std::uint64_t>(out, "other_gid", 1, 2 * n, [&](std::size_t p, int) {
    return p % 2 == 0 ? c.gid_b[p / 2] : c.gid_a[p / 2];
  });
  io::vtk::write_data_array<std::uint32_t>(out, "shape", 1, 2 * n, [&](std::size_t p, int) {
    return p % 2 == 0 ? c.shape_a[p / 2] : c.shape_b[p / 2];
  });
  io::vtk::write_data_array<std::uint8_t>(out, "side", 1, 2 * n, [&](std::size_t p, int) { return p % 2; });
  out << "      </PointData>\n";
  out << "      <CellData Scalars=\"distance\" Normals=\"normal\">\n";
  io::vtk::write_data_array<real>(out, "distance", 1, n, [&](std::size_t i, int) { return c.distance[i]; });
  io::vtk::write_data_array<real>(out, "normal", 3, n, normal);
  io::vtk::write_data_array<std::uint64_t>(out, "gid_a", 1, n, [&](std::size_t i, int) { return c.gid_a[i]; });
  io::vtk::write_data_array<std::uint64_t>(out, "gid_b", 1, n, [&](std::size_t i, int) { return c.gid_b[i]; });
  io::vtk::write_data_array<std::uint32_t>(out, "shape_a", 1, n, [&](std::size_t i, int) { return c.shape_a[i]; });
  io::vtk::write_data_array<std::uint32_t>(out, "shape_b", 1, n, [&](std::size_t i, int) { return c.shape_b[i]; });
  out << "      </CellData>\n"
      << "    </Piece>\n";
  io::vtk::end_file(out, "PolyData");
}

void write_spheres_vtp(std::ostream& out, const gpu::SphereShapes& s) {
  const std::size_t n = s.size();
  io::vtk::begin_file(out, "PolyData");
  begin_piece(out, n, n, 0);
  out << "      <Points>\n";
  io::vtk::write_data_array<real>(out, "points", 3, n, [&](std::size_t i, int k) {
    return k == 0 ? s.x[i] : k == 1 ? s.y[i] : s.z[i];
  });
  out << "      </Points>\n";
  // One vertex cell per point so the spheres show as points even before a glyph filter.
  write_consecutive_cells(out, "Verts", n, 1);
  out << "      <PointData Scalars=\"radius\">\n";
  io::vtk::write_data_array<real>(out, "radius", 1, n, [&](std::size_t i, int) { return s.radius[i]; });
  io::vtk::write_data_array<std::uint64_t>(out, "gid", 1, n, [&](std::size_t i, int) { return s.body_gid[i]; });
  io::vtk::write_data_array<std::uint32_t>(out, "shape_index", 1, n, [&](std::size_t i, int) { return s.shape_index[i]; });
  out << "      </PointData>\n"
      << "    </Piece>\n";
  io::vtk::end_file(out, "PolyData");
}

void write_contacts_vtp(const std::filesystem::path& file, const gpu::ContactList& contacts) {
  io::write_output_file(file, [&](std::ostream& out) { write_contacts_vtp(out, contacts); });
}

void write_spheres_vtp(const std::filesystem::path& file, const gpu::SphereShapes& spheres) {
  io::write_output_file(file, [&](std::ostream& out) { write_spheres_vtp(out, spheres); });
}

}  // namespace trackcosim::terrain
