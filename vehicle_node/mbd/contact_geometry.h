#pragma once
// Internal: narrow phase between primitive pairs. Each test returns the contact when the gap
// (signed surface distance, negative when overlapping) is below `margin`. The normal points
// from the second shape towards the first (it pushes the first shape away); the point lies
// midway between the two surfaces.

#include "vehicle_node/mbd/eigen_types.h"
#include "vehicle_node/mbd/ground.h"

namespace trackcosim::vehicle::detail {

struct ContactPoint {
  V3 point;
  V3 normal;
  double gap;
};

bool collide_sphere_sphere(const V3& ca, double ra, const V3& cb, double rb, double margin, ContactPoint& out);

/// Sphere (c, r) against a solid cylinder (centre cc, unit axis, radius R, half width hw).
bool collide_sphere_cylinder(const V3& c, double r, const V3& cc, const V3& axis, double R, double hw,
                             double margin, ContactPoint& out);

/// Sphere against the height field: gap measured along the surface normal under the centre.
bool collide_sphere_ground(const V3& c, double r, const Ground& ground, double margin, ContactPoint& out);

}  // namespace trackcosim::vehicle::detail
