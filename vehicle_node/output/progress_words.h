#pragma once
// What the vehicle is doing, for the progress line of both runs (runtime/progress_meter.h): its
// forward speed and how far it has come, so that a user watching a long run sees it drive (or
// stall) rather than only a clock.

#include <string>

#include "vehicle_node/mbd/multibody_system.h"
#include "vehicle_node/track/tracked_vehicle.h"

namespace trackcosim::vehicle {

/// "0.552 m/s, 0.421 m travelled": the chassis velocity along x and its x since `start_x`.
std::string progress_words(const MultibodySystem& system, const TrackedVehicle& vehicle, double start_x);

}  // namespace trackcosim::vehicle
