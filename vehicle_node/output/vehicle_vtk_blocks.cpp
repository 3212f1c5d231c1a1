#include "vehicle_node/output/vehicle_vtk_blocks.h"

#include <cstdint>

#include "io/vtk_xml.h"

namespace trackcosim::vehicle {
namespace {

namespace vtk = io::vtk;

const std::vector<LocalSphere>& spheres_of(const VehicleDrawing& d, const DrawnBody& b) {
  return d.shoe_spheres[static_cast<int>(b.side)];
}

double component(Vec3 v, int k) { return k == 0 ? v.x : k == 1 ? v.y : v.z; }

void open_piece(std::ostream& out, std::size_t points, std::size_t cells) {
  vtk::begin_file(out, "UnstructuredGrid");
  out << "    <Piece NumberOfPoints=\"" << points << "\" NumberOfCells=\"" << cells << "\">\n";
}

void close_piece(std::ostream& out) {
  out << "    </Piece>\n";
  vtk::end_file(out, "UnstructuredGrid");
}

/// <Points> of Float64 (T = double) or Float32 points.
template <typename T>
void write_points(std::ostream& out, const std::vector<Vec3>& points) {
  out << "      <Points>\n";
  vtk::write_data_array<T>(out, "Points", 3, points.size(),
                           [&](std::size_t i, int k) { return component(points[i], k); });
  out << "      </Points>\n";
}

}  // namespace

std::size_t VehicleDrawing::sphere_count() const {
  std::size_t n = 0;
  for (const DrawnBody& b : bodies)
    if (b.kind == BodyKind::kShoe) n += shoe_spheres[static_cast<int>(b.side)].size();
  return n;
}

VehicleDrawing draw_vehicle(const TrackedVehicle& vehicle, std::array<std::vector<LocalSphere>, 2> shoe_spheres) {
  VehicleDrawing d{drawn_bodies(vehicle), {}, std::move(shoe_spheres)};
  for (const DrawnBody& b : d.bodies) d.surfaces.push_back(body_surface(b, vehicle.model(), spheres_of(d, b)));
  return d;
}

void write_bodies_vtu(std::ostream& out, const VehicleDrawing& d, const MultibodySystem& system) {
  std::vector<Vec3> points;
  std::vector<std::uint64_t> connectivity, offsets;
  std::vector<std::uint8_t> types, kinds;
  std::vector<std::uint32_t> body_of_cell;
  for (std::size_t b = 0; b < d.bodies.size(); ++b) {
    const BodyState s = system.state(d.bodies[b].id);
    const Surface& surface = d.surfaces[b];
    const std::uint64_t first_point = points.size(), first_index = connectivity.size();
    for (const Vec3 p : surface.points) points.push_back(s.position + rotate(s.orientation, p));
    for (const std::uint32_t p : surface.connectivity) connectivity.push_back(first_point + p);
    for (const std::uint32_t o : surface.offsets) offsets.push_back(first_index + o);
    types.insert(types.end(), surface.types.begin(), surface.types.end());
    body_of_cell.insert(body_of_cell.end(), surface.types.size(), static_cast<std::uint32_t>(b));
    kinds.insert(kinds.end(), surface.types.size(), static_cast<std::uint8_t>(d.bodies[b].kind));
  }
  const std::size_t cells = types.size();
  open_piece(out, points.size(), cells);
  out << "      <CellData Scalars=\"kind\">\n";
  vtk::write_data_array<std::uint32_t>(out, "body", 1, cells, [&](std::size_t i, int) { return body_of_cell[i]; });
  vtk::write_data_array<std::uint8_t>(out, "kind", 1, cells, [&](std::size_t i, int) { return kinds[i]; });
  out << "      </CellData>\n";
  write_points<float>(out, points);
  out << "      <Cells>\n";
  vtk::write_data_array<std::int64_t>(out, "connectivity", 1, connectivity.size(),
                                      [&](std::size_t i, int) { return connectivity[i]; });
  vtk::write_data_array<std::int64_t>(out, "offsets", 1, cells, [&](std::size_t i, int) { return offsets[i]; });
  vtk::write_data_array<std::uint8_t>(out, "types", 1, cells, [&](std::size_t i, int) { return types[i]; });
  out << "      </Cells>\n";
  close_piece(out);
}

void write_spheres_vtu(std::ostream& out, const VehicleDrawing& d, const MultibodySystem& system) {
  std::vector<Vec3> centers;
  std::vector<double> radius;
  std::vector<std::uint32_t> shoe, body;
  for (std::size_t b = 0; b < d.bodies.size(); ++b) {
    if (d.bodies[b].kind != BodyKind::kShoe) continue;
    const BodyState s = system.state(d.bodies[b].id);
    for (const LocalSphere& sphere : spheres_of(d, d.bodies[b])) {
      centers.push_back(s.position + rotate(s.orientation, sphere.offset));
      radius.push_back(sphere.radius);
      shoe.push_back(d.bodies[b].index);
      body.push_back(static_cast<std::uint32_t>(b));
    }
  }
  const std::size_t n = centers.size();
  open_piece(out, n, n);
  out << "      <PointData Scalars=\"radius\">\n";
  vtk::write_data_array<double>(out, "radius", 1, n, [&](std::size_t i, int) { return radius[i]; });
  vtk::write_data_array<std::uint32_t>(out, "shoe", 1, n, [&](std::size_t i, int) { return shoe[i]; });
  vtk::write_data_array<std::uint32_t>(out, "body", 1, n, [&](std::size_t i, int) { return body[i]; });
  out << "      </PointData>\n";
  write_points<double>(out, centers);
  vtk::write_vertex_cells(out, n);
  close_piece(out);
}

void write_frames_vtu(std::ostream& out, const VehicleDrawing& d, const MultibodySystem& system) {
  const std::size_t n = d.bodies.size();
  std::vector<BodyState> states;
  std::vector<Vec3> positions;
  for (const DrawnBody& b : d.bodies) {
    states.push_back(system.state(b.id));
    positions.push_back(states.back().position);
  }
  open_piece(out, n, n);
  out << "      <PointData Scalars=\"kind\" Vectors=\"velocity\">\n";
  vtk::write_data_array<std::uint32_t>(out, "body", 1, n, [](std::size_t i, int) { return i; });
  vtk::write_data_array<std::uint8_t>(out, "kind", 1, n,
                                      [&](std::size_t i, int) { return static_cast<std::uint8_t>(d.bodies[i].kind); });
  vtk::write_data_array<double>(out, "orientation", 4, n, [&](std::size_t i, int k) {
    const Quat q = states[i].orientation;
    return k == 0 ? q.w : k == 1 ? q.x : k == 2 ? q.y : q.z;
  });
  vtk::write_data_array<double>(out, "velocity", 3, n,
                                [&](std::size_t i, int k) { return component(states[i].velocity, k); });
  out << "      </PointData>\n";
  write_points<double>(out, positions);
  vtk::write_vertex_cells(out, n);
  close_piece(out);
}

}  // namespace trackcosim::vehicle
