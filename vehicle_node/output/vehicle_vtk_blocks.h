#pragma once
// The three blocks of one frame of the vehicle's VTK series (docs/vehicle.md, "VTK series"),
// each an UnstructuredGrid, binary or ASCII (io/vtk_xml.h, Encoding):
//   bodies.vtu   every drawn body's surface as polygons, Float32 world points; cell data `body`
//                (index in the frames block) and `kind` (BodyKind)
//   spheres.vtu  one vertex per contact sphere of every shoe, world centres; point data
//                `radius`, `shoe` (shoes.csv's `shoe` column) and `body`
//   frames.vtu   one vertex per drawn body at its reference point; point data `body`, `kind`,
//                `orientation` (w,x,y,z), `velocity` and `shoe_force` (shoes.csv's fx,fy,fz:
//                the ground's or the terrain's force on a shoe, N; zero on the other bodies)
// In ASCII, Float64 values are written by io::append_number, as vehicle_recorder writes
// shoes.csv, so a shoe's point in frames.vtu reads the same text as its x,y,z there; binary
// files store them as Float32.

#include <array>
#include <ostream>
#include <vector>

#include "io/vtk_xml.h"
#include "vehicle_node/output/body_surfaces.h"

namespace trackcosim::vehicle {

/// What a frame draws, fixed for a run: the bodies in frame order, each one's surface in its
/// own frame, and the shoes' contact spheres per side (left, right) in the shoe frame.
struct VehicleDrawing {
  std::vector<DrawnBody> bodies;
  std::vector<Surface> surfaces;
  std::array<std::vector<LocalSphere>, 2> shoe_spheres;

  std::size_t sphere_count() const;
};

/// `shoe_spheres`: the spheres the run's ground contact uses, per side.
VehicleDrawing draw_vehicle(const TrackedVehicle& vehicle, std::array<std::vector<LocalSphere>, 2> shoe_spheres);

void write_bodies_vtu(std::ostream& out, const VehicleDrawing& drawing, const MultibodySystem& system,
                      io::vtk::Encoding encoding);
void write_spheres_vtu(std::ostream& out, const VehicleDrawing& drawing, const MultibodySystem& system,
                       io::vtk::Encoding encoding);
/// Per body of the drawing, its entry of `shoe_forces` (left track's shoes, then the right's, as
/// shoes.csv lists them) when it is a shoe, else zero. Throws std::invalid_argument when the
/// counts differ.
std::vector<Vec3> shoe_forces_by_body(const VehicleDrawing& drawing, const std::vector<Vec3>& shoe_forces);

/// `shoe_forces`: per body of the drawing, in its order (zero for a body that is not a shoe).
void write_frames_vtu(std::ostream& out, const VehicleDrawing& drawing, const MultibodySystem& system,
                      const std::vector<Vec3>& shoe_forces, io::vtk::Encoding encoding);

}  // namespace trackcosim::vehicle
