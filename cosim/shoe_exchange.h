#pragma once
// What crosses between the vehicle and the terrain every coupling step (DESIGN.md,
// "Co-simulation contract"): 13 reals per shoe out, 6 reals per shoe back (and, for a vehicle that
// asked for them, the shoe's 42 stiffness and damping numbers: ShoeStiffness). SI units, world
// frame (X forward, Y left, Z up), quaternion (w, x, y, z) body -> world, angular velocity in
// the world frame; the torque is about the shoe's reference point (its body origin).

#include <cstdint>
#include <type_traits>
#include <vector>

#include "math/real.h"
#include "math/vec3.h"

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

/// How the terrain's force on a shoe answers a small move of the shoe away from the path its
/// proxy followed (docs/protocol.md, "Implicit shoe loads"): K and C, symmetric 6x6 matrices in
/// the shoe's generalised displacement and velocity (x of its reference point, then a rotation
/// vector; v, then omega), each stored as its lower triangle by rows, (0,0) (1,0) (1,1) (2,0) ...
/// A vehicle that integrates the load F - K e - C de/dt implicitly (e: the shoe's pose less the
/// proxy's) is stable with shoe springs far stiffer than an explicit coupling allows.
struct ShoeStiffness {
  static constexpr int kPacked = 21;
  double stiffness[kPacked];  ///< K: N/m, N/rad, N m/rad
  double damping[kPacked];    ///< C: N s/m, N s/rad, N m s/rad
  /// Index of (row, col) in the packed lower triangle, either order.
  static constexpr int packed(int row, int col) {
    return row >= col ? row * (row + 1) / 2 + col : col * (col + 1) / 2 + row;
  }
};
static_assert(std::is_trivially_copyable_v<ShoeStiffness> && sizeof(ShoeStiffness) == 42 * sizeof(double));

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
