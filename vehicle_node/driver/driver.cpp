#include "vehicle_node/driver/driver.h"

#include <limits>

namespace trackcosim::vehicle {

const char* drive_mode_name(DriveMode m) {
  switch (m) {
    case DriveMode::kSpeed: return "speed";
    case DriveMode::kTorque: return "torque";
    case DriveMode::kCoast: return "coast";
  }
  return "?";
}

DriverSettings read_driver_settings(const io::JsonField& section) {
  section.expect_object({"mode", "left", "right", "both", "max_torque"});
  DriverSettings d;
  const std::string mode = section.member("mode").one_of({"speed", "torque", "coast"});
  d.mode = mode == "speed" ? DriveMode::kSpeed : mode == "torque" ? DriveMode::kTorque : DriveMode::kCoast;
  const auto both = section.optional_member("both");
  const auto left = section.optional_member("left");
  const auto right = section.optional_member("right");
  if (d.mode == DriveMode::kCoast) {
    for (const auto& f : {both, left, right})
      if (f) f->fail("coast mode takes no profile (the motors are free)");
  } else if (both) {
    if (left || right) both->fail("give either \"both\" or \"left\" and \"right\", not both");
    d.profile[0] = d.profile[1] = read_time_profile(*both);
  } else {
    if (!left || !right) section.fail("needs a \"both\" profile, or \"left\" and \"right\" profiles");
    d.profile[0] = read_time_profile(*left);
    d.profile[1] = read_time_profile(*right);
  }
  if (const auto f = section.optional_member("max_torque")) {
    if (d.mode != DriveMode::kSpeed) f->fail("is for speed mode only");
    d.max_torque = f->positive_number();
  }
  return d;
}

double sprocket_torque_limit(const TrackedVehicle& vehicle, double requested) {
  const double limit = requested > 0 ? requested : vehicle.model().track.sprocket.max_torque;
  return limit > 0 ? limit : std::numeric_limits<double>::infinity();
}

void apply_driver(const DriverSettings& driver, const TrackedVehicle& vehicle, MultibodySystem& system, double t) {
  const double limit = sprocket_torque_limit(vehicle, driver.max_torque);
  for (const Side s : kSides) {
    const MotorId motor = vehicle.track(s).motor;
    const double value = driver.profile[static_cast<int>(s)](t);
    switch (driver.mode) {
      case DriveMode::kSpeed: system.set_motor_speed(motor, value, limit); break;
      case DriveMode::kTorque: system.set_motor_torque(motor, value); break;
      case DriveMode::kCoast: system.set_motor_free(motor); break;
    }
  }
}

}  // namespace trackcosim::vehicle
