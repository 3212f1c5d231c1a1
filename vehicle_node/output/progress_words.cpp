#include "vehicle_node/output/progress_words.h"

#include <cstdio>

namespace trackcosim::vehicle {

std::string progress_words(const MultibodySystem& system, const TrackedVehicle& vehicle, double start_x) {
  const BodyState chassis = system.state(vehicle.chassis());
  char text[96];
  std::snprintf(text, sizeof text, "%.3f m/s, %.3f m travelled", chassis.velocity.x, chassis.position.x - start_x);
  return text;
}

}  // namespace trackcosim::vehicle
