#pragma once
// The drawbar-pull rig (cosim/drawbar_rig.h) on vehicle_node's own tracked vehicle. In place of
// the driver it holds both sprockets at the track speed of the schedule (speed motors, the
// sprocket's torque limit) or frees them (towed), holds the chassis' forward speed through a
// horizontal drive at the hitch (MultibodySystem::add_body_drive: the force of its speed mode
// is the drawbar pull) or pulls it back there with the imposed force, and tilts gravity for a slope.

#include <array>
#include <cstdint>
#include <vector>

#include "cosim/drawbar_rig.h"
#include "vehicle_node/mbd/multibody_system.h"
#include "vehicle_node/track/tracked_vehicle.h"

namespace trackcosim::vehicle {

class VehicleRig {
 public:
  /// Adds the rig's speed control to `system` and tilts its gravity; call once the vehicle is built.
  VehicleRig(cosim::RigSettings settings, const TrackedVehicle& vehicle, MultibodySystem& system);

  /// Sets motors, speed control and pull for time t. Call before every step (instead of apply_driver).
  void apply(MultibodySystem& system, double t);

  /// Adds the step just taken to the row being measured; `shoe_forces` are the ground's or
  /// terrain's forces on every shoe over that step (left track, then right), as in shoes.csv.
  void accumulate(const MultibodySystem& system, const std::vector<Vec3>& shoe_forces);
  /// The row of the steps accumulated since the last one, at the current time: forces, torques
  /// and speeds are their means over those steps (a contact force sampled at one step of every
  /// twenty aliases the chatter of stiff contacts, which alternates from step to step), the
  /// position and pitch are those of now. Starts the next row.
  cosim::RigRow take_row(const MultibodySystem& system);

  /// The row being accumulated: its step count and sums (chassis vx, sprocket speeds and
  /// torques left and right, track speed, drawbar pull, ground fx and fz). What a checkpoint keeps
  /// so that a resumed run's row is the mean over the same steps.
  struct Progress {
    std::uint64_t steps = 0;
    std::array<double, 9> sums{};
  };
  Progress progress() const;
  void restore(const Progress& p);

  const cosim::RigSettings& settings() const { return settings_; }
  /// m |g|, N.
  double weight() const { return weight_; }

 private:
  cosim::RigSettings settings_;
  const TrackedVehicle& vehicle_;
  BodyDriveId carriage_;
  double weight_ = 0, pitch_radius_ = 0, max_torque_ = 0;
  cosim::RigRow sum_;  // sums of the accumulated steps' means
  std::uint64_t steps_ = 0;
};

}  // namespace trackcosim::vehicle
