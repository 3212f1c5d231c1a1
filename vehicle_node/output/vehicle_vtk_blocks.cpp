#include "vehicle_node/output/vehicle_vtk_blocks.h"

#include <cstdint>
#include <stdexcept>
#include <string>

#include "io/vtk_xml.h"

namespace trackcosim::vehicle {
namespace {

namespace vtk = io::vtk;

const std::vector<LocalSphere>& spheres_of(const VehicleDrawing& d, const DrawnBody& b) {
  return d.shoe_spheres[static_cast<int>(b.side)];
}

double component(Vec3 v, int k) { return k == 0 ? v.x : k == 1 ? v.y : v.z; }

void open_piece(std::ostream& out, std::size_t points, std::size_t cells) {
  out << "    <Piece NumberOfPoints=\"" << points << "\" NumberOfCells=\"" << cells << "\">\n";
}

void close_piece(std::ostream& out, vtk::DatasetFile& file) {
  out << "    </Piece>\n";
  file.close();
}

/// <Points> of Float64 (T = double; Float32 in a binary file) or Float32 points.
template <typename T>
void write_points(std::ostream& out, vtk::DatasetFile& file, const std::vector<Vec3>& points) {
  out << "      <Points>\n";
  file.array<T>("Points", 3, points.size(), [&](std::size_t i, int k) { return component(points[i], k); });
  out << "      </Points>\n";
}

/// The whole <Cells> element of `n` VTK_VERTEX cells, cell i on point i.
void write_vertex_cells(std::ostream& out, vtk::DatasetFile& file, std::size_t n) {
  out << "      <Cells>\n";
  file.array<std::int64_t>("connectivity", 1, n, [](std::size_t i, int) { return i; });
  file.array<std::int64_t>("offsets", 1, n, [](std::size_t i, int) { return i + 1; });
  file.array<std::uint8_t>("types", 1, n, [](std::size_t, int) { return vtk::kVertex; });
  out << "      </Cells>\n";
}

}  // namespace

std::size_t VehicleDrawing::sphere_count() const {
  std::size_t n = 0;
  for (const DrawnBody& b : bodies)
    if (b.kind == BodyKind::kShoe) n += shoe_spheres[static_cast<int>(b.side)].size();
  return n;
}

std::vector<Vec3> shoe_forces_by_body(const VehicleDrawing& d, const std::vector<Vec3>& shoe_forces) {
  std::size_t left = 0, shoes = 0;
  for (const DrawnBody& b : d.bodies)
    if (b.kind == BodyKind::kShoe) ++shoes, left += b.side == Side::kLeft ? 1 : 0;
  if (shoe_forces.size() != shoes)
    throw std::invalid_argument("VTK frame: " + std::to_string(shoe_forces.size()) + " shoe forces for " +
                                std::to_string(shoes) + " shoes");
  std::vector<Vec3> out(d.bodies.size(), Vec3{0, 0, 0});
  for (std::size_t b = 0; b < d.bodies.size(); ++b)
    if (d.bodies[b].kind == BodyKind::kShoe)
      out[b] = shoe_forces[(d.bodies[b].side == Side::kLeft ? 0 : left) + d.bodies[b].index];
  return out;
}

VehicleDrawing draw_vehicle(const TrackedVehicle& vehicle, std::array<std::vector<LocalSphere>, 2> shoe_spheres) {
  VehicleDrawing d{drawn_bodies(vehicle), {}, std::move(shoe_spheres)};
  for (const DrawnBody& b : d.bodies) d.surfaces.push_back(body_surface(b, vehicle.model(), spheres_of(d, b)));
  return d;
}

void write_bodies_vtu(std::ostream& out, const VehicleDrawing& d, const MultibodySystem& system,
                      vtk::Encoding encoding) {
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
  vtk::DatasetFile file(out, "UnstructuredGrid", encoding);
  open_piece(out, points.size(), cells);
  out << "      <CellData Scalars=\"kind\">\n";
  file.array<std::uint32_t>("body", 1, cells, [&](std::size_t i, int) { return body_of_cell[i]; });
  file.array<std::uint8_t>("kind", 1, cells, [&](std::size_t i, int) { return kinds[i]; });
  out << "      </CellData>\n";
  write_points<float>(out, file, points);
  out << "      <Cells>\n";
  file.array<std::int64_t>("connectivity", 1, connectivity.size(), [&](std::size_t i, int) { return connectivity[i]; });
  file.array<std::int64_t>("offsets", 1, cells, [&](std::size_t i, int) { return offsets[i]; });
  file.array<std::uint8_t>("types", 1, cells, [&](std::size_t i, int) { return types[i]; });
  out << "      </Cells>\n";
  close_piece(out, file);
}

void write_spheres_vtu(std::ostream& out, const VehicleDrawing& d, const MultibodySystem& system,
                       vtk::Encoding encoding) {
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
  vtk::DatasetFile file(out, "UnstructuredGrid", encoding);
  open_piece(out, n, n);
  out << "      <PointData Scalars=\"radius\">\n";
  file.array<double>("radius", 1, n, [&](std::size_t i, int) { return radius[i]; });
  file.array<std::uint32_t>("shoe", 1, n, [&](std::size_t i, int) { return shoe[i]; });
  file.array<std::uint32_t>("body", 1, n, [&](std::size_t i, int) { return body[i]; });
  out << "      </PointData>\n";
  write_points<double>(out, file, centers);
  write_vertex_cells(out, file, n);
  close_piece(out, file);
}

void write_frames_vtu(std::ostream& out, const VehicleDrawing& d, const MultibodySystem& system,
                      const std::vector<Vec3>& shoe_forces, vtk::Encoding encoding) {
  const std::size_t n = d.bodies.size();
  std::vector<BodyState> states;
  std::vector<Vec3> positions;
  for (const DrawnBody& b : d.bodies) {
    states.push_back(system.state(b.id));
    positions.push_back(states.back().position);
  }
  vtk::DatasetFile file(out, "UnstructuredGrid", encoding);
  open_piece(out, n, n);
  out << "      <PointData Scalars=\"kind\" Vectors=\"velocity\">\n";
  file.array<std::uint32_t>("body", 1, n, [](std::size_t i, int) { return i; });
  file.array<std::uint8_t>("kind", 1, n, [&](std::size_t i, int) { return static_cast<std::uint8_t>(d.bodies[i].kind); });
  file.array<double>("orientation", 4, n, [&](std::size_t i, int k) {
    const Quat q = states[i].orientation;
    return k == 0 ? q.w : k == 1 ? q.x : k == 2 ? q.y : q.z;
  });
  file.array<double>("velocity", 3, n, [&](std::size_t i, int k) { return component(states[i].velocity, k); });
  file.array<double>("shoe_force", 3, n, [&](std::size_t i, int k) { return component(shoe_forces[i], k); });
  out << "      </PointData>\n";
  write_points<double>(out, file, positions);
  write_vertex_cells(out, file, n);
  close_piece(out, file);
}

}  // namespace trackcosim::vehicle
