#pragma once
// Internal: spring-dampers (explicit forces) and rotational motors (a velocity row in speed
// mode, an explicit torque in torque mode).

#include <vector>

#include "vehicle_node/mbd/body_store.h"
#include "vehicle_node/mbd/constraint_row.h"

namespace trackcosim::vehicle::detail {

struct SpringDamper {
  int a, b;
  V3 ra, rb;  // attachment points, body frames
  double stiffness, damping, rest_length, preload;
};

/// Current length L and rate dL/dt of the spring, and the unit direction from a's point to b's.
struct SpringGeometry {
  double length, rate;
  V3 dir, pa, pb;
};
SpringGeometry spring_geometry(const SpringDamper& s, const BodyStore& bodies);

/// F = preload + k (rest - L) - c dL/dt, positive pushing the points apart.
double spring_force(const SpringDamper& s, const SpringGeometry& g);

/// Adds the spring's force and torque to the per-body accumulators (indexed by body).
void apply_spring(const SpringDamper& s, const BodyStore& bodies, std::vector<V3>& force, std::vector<V3>& torque);

enum class MotorMode : std::uint8_t { kFree, kSpeed, kTorque };

struct Motor {
  int joint;
  MotorMode mode = MotorMode::kFree;
  double speed = 0.0, max_torque = 0.0, torque = 0.0;
  RowState state = RowState::kFree;  // warm start of the speed row
  double applied_torque = 0.0;       // last step, N m on body b about the axis
  int row = -1;                      // speed row in the last step's list
};

/// A drive of one body against the world along a fixed world direction, acting at a point of
/// the body (a drawbar rig's carriage): in speed mode a velocity row drives the point's speed
/// along the direction to `speed` (bilateral and unbounded, so no warm-start state); in force
/// mode it pushes with `force` along the direction at the point (explicit).
enum class BodyDriveMode : std::uint8_t { kReleased, kSpeed, kForce };

struct BodyDrive {
  int body;
  V3 local_point;                    // body frame, from the centre of mass
  V3 direction;                      // world, unit
  BodyDriveMode mode = BodyDriveMode::kReleased;
  double speed = 0.0, force = 0.0;
  double applied_force = 0.0;        // last step, N on the body along the direction
  int row = -1;
};

}  // namespace trackcosim::vehicle::detail
