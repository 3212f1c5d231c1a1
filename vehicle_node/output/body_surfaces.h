#pragma once
// The surfaces the VTK series draws, as polygons in a body's own frame (origin at its reference
// point): the chassis box, the wheels' cylinders and the shoes' pads. They follow the contact
// geometry the model uses (track/tracked_vehicle.cpp), not a CAD model: a double wheel is the
// two cylinders a guide horn runs between, a pad the box its spheres fill (or, for a pad given
// as a mesh, that mesh).

#include <cstdint>
#include <vector>

#include "vehicle_node/output/drawn_bodies.h"

namespace trackcosim::vehicle {

/// Polygons over shared points, in VTK's cell layout: cell c is points connectivity[offsets[c-1]
/// .. offsets[c]) (offsets[-1] = 0) of VTK type types[c]; faces wind counter-clockwise seen
/// from outside.
struct Surface {
  std::vector<Vec3> points;
  std::vector<std::uint32_t> connectivity, offsets;
  std::vector<std::uint8_t> types;
};

/// Segments around a wheel's circumference.
inline constexpr int kWheelSegments = 24;

/// Appends a box of edge lengths `size` (along x, y, z) centred on `center`: 8 points, 6 quads.
void add_box(Surface& s, Vec3 center, Vec3 size);
/// Appends a cylinder about the y axis (the axle of every wheel): kWheelSegments side quads and
/// two cap polygons.
void add_cylinder(Surface& s, Vec3 center, double radius, double width);

/// The surface of one drawn body in its frame. `shoe_spheres`: the side's shoe spheres, which
/// give the box of a shoe without a pad.
Surface body_surface(const DrawnBody& body, const VehicleTemplate& model, const std::vector<LocalSphere>& shoe_spheres);

}  // namespace trackcosim::vehicle
