#pragma once
// Driver inputs: what the sprocket motors do over time, per side. Speed mode drives each
// sprocket's speed (rad/s, + rolls the vehicle forward) along a time profile, with a torque
// limit; steering is the difference between the left and right profiles. Torque mode applies
// a torque profile (N m) per side. Coast mode leaves both motors free (no throttle, no brake).
//   "driver": { "mode": "speed", "left": [[0, 0], [1, 2]], "right": [[0, 0], [1, 2]],
//               "max_torque": 2e4 }        ("both": profile, sets left and right alike)

#include <array>

#include "io/json_fields.h"
#include "vehicle_node/driver/time_profile.h"
#include "vehicle_node/mbd/multibody_system.h"
#include "vehicle_node/track/tracked_vehicle.h"

namespace trackcosim::vehicle {

enum class DriveMode { kSpeed, kTorque, kCoast };
const char* drive_mode_name(DriveMode m);

struct DriverSettings {
  DriveMode mode = DriveMode::kCoast;
  std::array<TimeProfile, 2> profile;   ///< indexed by Side
  double max_torque = 0.0;              ///< speed mode, N m; 0: the sprocket's max_torque, else unlimited
};

DriverSettings read_driver_settings(const io::JsonField& section);

/// The speed motors' torque limit: `requested` (N m) when > 0, else the sprocket's max_torque,
/// else unlimited (infinity).
double sprocket_torque_limit(const TrackedVehicle& vehicle, double requested = 0.0);

/// Sets both motors for time t. Call before every step.
void apply_driver(const DriverSettings& driver, const TrackedVehicle& vehicle, MultibodySystem& system, double t);

}  // namespace trackcosim::vehicle
