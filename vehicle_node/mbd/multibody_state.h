#pragma once
// Everything a MultibodySystem carries from one step to the next, as plain data: what a
// checkpoint must hold so that a restored system continues bit for bit as the original would
// have (vehicle_node/coupled/vehicle_checkpoint.h writes it to a file). The model itself (bodies'
// masses, joints, springs, shapes) is not in it: the restoring program rebuilds the same model
// from its config first, then restores this state onto it.
//
// Carried between steps, and so saved: time and the last step size; every body's pose,
// velocity and held external force and torque; each motor's mode, set-points and the warm-start
// state of its speed row; each joint's limit-row states; the contact warm-start map (row states
// and impulses by contact key). Not saved: the last step's results (forces, reports), which the
// next step recomputes, and the solver's symbolic analysis, which it redoes from the same
// pattern (the same ordering, so the same bits).

#include <array>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace trackcosim::vehicle {

struct MultibodyState {
  struct Body {
    double position[3];
    double orientation[4];  ///< w x y z, body -> world
    double velocity[3], angular_velocity[3];
    double external_force[3], external_torque[3];  ///< held, world frame, torque about the com
  };
  struct Motor {
    std::uint8_t mode = 0;       ///< free, speed, torque
    std::uint8_t row_state = 0;  ///< warm start of the speed row
    double speed = 0, max_torque = 0, torque = 0, applied_torque = 0;
  };
  struct ContactMemory {
    std::uint64_t key = 0;
    std::uint8_t row_state[3] = {0, 0, 0};  ///< normal, t1, t2
    double lambda[3] = {0, 0, 0};
  };

  double time = 0, last_step = 0;
  std::vector<Body> bodies;
  std::vector<Motor> motors;
  std::vector<std::array<std::uint8_t, 2>> joint_limit_states;  ///< per joint: lower, upper row
  std::vector<ContactMemory> contacts;                          ///< sorted by key
};
static_assert(std::is_trivially_copyable_v<MultibodyState::Body> && sizeof(MultibodyState::Body) == 19 * 8);

}  // namespace trackcosim::vehicle
