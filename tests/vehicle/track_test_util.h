#pragma once
// Shared helpers of the vehicle track tests: the shipped configs and a small vehicle sim.

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "io/config_error.h"

#include "vehicle_node/driver/driver.h"
#include "vehicle_node/ground/ground_settings.h"
#include "vehicle_node/mbd/multibody_system.h"
#include "vehicle_node/standalone/run_config.h"
#include "vehicle_node/track/tracked_vehicle.h"

namespace trackcosim::vehicle::test {

inline std::string shipped_config(const std::string& name) {
  return std::string(TRACKCOSIM_SOURCE_DIR) + "/configs/vehicles/" + name + ".json";
}

/// The ConfigError a config text gives when parsed under `name`, or "(no error)".
inline std::string config_error_of(const std::string& text, const std::string& name) {
  try {
    (void)parse_run_config(text, name);
  } catch (const io::ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

/// A config's vehicle on a ground, with its driver, stepped as standalone mode steps it.
struct VehicleSim {
  explicit VehicleSim(const RunConfig& config)
      : config(config), ground(make_ground(config.ground)), vehicle(config.vehicle, system, *ground) {
    system.set_ground(ground, config.vehicle.contact.ground_friction);
  }
  void step(double h) {
    apply_driver(config.driver, vehicle, system, system.time());
    vehicle.apply_travel_stops(system, h);
    system.step(h);
  }
  RunConfig config;
  std::shared_ptr<const Ground> ground;
  MultibodySystem system;
  TrackedVehicle vehicle;
};

/// Largest distance between the two pin points of any shoe pair (m): shoe i's front pin at
/// (+pitch/2, 0, 0) and shoe i+1's rear pin at (-pitch/2, 0, 0), measured from body poses.
inline double largest_pin_gap(const TrackedVehicle& v, const MultibodySystem& system) {
  const double half = 0.5 * v.model().track.shoes.pitch;
  double gap = 0.0;
  for (const Side s : kSides) {
    const std::vector<BodyId>& shoes = v.track(s).shoes;
    for (std::size_t i = 0; i < shoes.size(); ++i) {
      const BodyState a = system.state(shoes[i]), b = system.state(shoes[(i + 1) % shoes.size()]);
      const Vec3 front = a.position + rotate(a.orientation, {half, 0, 0});
      const Vec3 rear = b.position + rotate(b.orientation, {-half, 0, 0});
      gap = std::max(gap, length(front - rear));
    }
  }
  return gap;
}

/// Largest sideways offset of any shoe from its track's plane, in the chassis frame (m).
inline double largest_lateral_offset(const TrackedVehicle& v, const MultibodySystem& system) {
  const BodyState c = system.state(v.chassis());
  double offset = 0.0;
  for (const Side s : kSides)
    for (const BodyId shoe : v.track(s).shoes) {
      const Vec3 local = rotate_inverse(c.orientation, system.state(shoe).position - c.position);
      offset = std::max(offset, std::abs(local.y - v.track(s).lateral_y));
    }
  return offset;
}

}  // namespace trackcosim::vehicle::test
