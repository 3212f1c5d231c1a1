#pragma once
// Helpers shared by the multibody engine tests.

#include <cmath>

#include "vehicle_node/mbd/multibody_system.h"

namespace trackcosim::vehicle::test {

inline constexpr double kG = 9.81;
inline constexpr double kPi = 3.14159265358979323846;

inline BodyDesc body(const char* name, double mass, Vec3 inertia, Vec3 position) {
  BodyDesc d;
  d.name = name;
  d.mass = mass;
  d.inertia = inertia;
  d.position = position;
  return d;
}

inline BodyDesc fixed_body(const char* name, Vec3 position = {0, 0, 0}) {
  BodyDesc d = body(name, 1.0, {1, 1, 1}, position);
  d.fixed = true;
  return d;
}

/// Rotation by angle about a unit axis.
inline Quat axis_angle(Vec3 axis, double angle) {
  const double s = std::sin(0.5 * angle);
  return {std::cos(0.5 * angle), s * axis.x, s * axis.y, s * axis.z};
}

}  // namespace trackcosim::vehicle::test
