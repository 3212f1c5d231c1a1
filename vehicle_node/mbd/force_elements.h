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

}  // namespace trackcosim::vehicle::detail
