#pragma once
// What crosses between the vehicle and the terrain every coupling step (DESIGN.md,
// "Co-simulation contract"): 13 reals per shoe out, 6 reals per shoe back. SI units, world
// frame (X forward, Y left, Z up), quaternion (w, x, y, z) body -> world, angular velocity in
// the world frame; the torque is about the shoe's reference point (its body origin).

#include <cstdint>
#include <type_traits>
#include <vector>

#include "gpu/math/real.h"
#include "gpu/math/vec3.h"

namespace trackcosim::cosim {

struct ShoeState {
  double position[3];
  double orientation[4];  ///< w, x, y, z
  double velocity[3];
  double angular_velocity[3];
};
static_assert(std::is_trivially_copyable_v<ShoeState> && sizeof(ShoeState) == 13 * sizeof(double));

/// The mean over the terrain's internal steps of the last coupling interval.
struct ShoeForce {
  double force[3];
  double torque[3];
};
static_assert(std::is_trivially_copyable_v<ShoeForce> && sizeof(ShoeForce) == 6 * sizeof(double));

/// A shoe's contact geometry for the terrain: spheres in the shoe frame, and its mass.
struct ShoeGeometry {
  struct Sphere {
    Vec3 offset;
    real radius;
  };
  real mass = 0;
  std::vector<Sphere> spheres;
};

}  // namespace trackcosim::cosim
