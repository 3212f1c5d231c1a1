#include "vehicle_node/rig/vehicle_rig.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "vehicle_node/driver/driver.h"

namespace trackcosim::vehicle {

VehicleRig::VehicleRig(cosim::RigSettings settings, const TrackedVehicle& vehicle, MultibodySystem& system)
    : settings_(std::move(settings)), vehicle_(vehicle) {
  const Vec3 g = cosim::slope_gravity(settings_, vehicle.model().gravity);
  system.set_gravity(g);
  weight_ = vehicle.model().total_mass() * length(g);
  pitch_radius_ = vehicle.sprocket_pitch_radius();
  max_torque_ = sprocket_torque_limit(vehicle);
  carriage_ = system.add_body_drive(vehicle.chassis(), settings_.hitch, {1.0, 0.0, 0.0});
}

void VehicleRig::apply(MultibodySystem& system, double t) {
  const cosim::RigTargets target = cosim::rig_targets(settings_, t);
  for (const Side s : kSides) {
    const MotorId motor = vehicle_.track(s).motor;
    if (target.tracks_driven)
      system.set_motor_speed(motor, target.track_speed / pitch_radius_, max_torque_);
    else
      system.set_motor_free(motor);
  }
  if (target.chassis_speed_held)
    system.set_body_drive_speed(carriage_, target.chassis_speed);
  else
    system.set_body_drive_force(carriage_, -target.pull);  // backwards, at the hitch
}

void VehicleRig::accumulate(const MultibodySystem& system, const std::vector<Vec3>& shoe_forces) {
  sum_.chassis_vx += system.state(vehicle_.chassis()).velocity.x;
  for (const Side s : kSides) {
    const int i = static_cast<int>(s);
    const double speed = system.revolute_speed(vehicle_.track(s).sprocket_axle);
    sum_.sprocket_speed[i] += speed;
    sum_.sprocket_torque[i] += system.motor_torque(vehicle_.track(s).motor);
    sum_.track_speed += 0.5 * speed * pitch_radius_;
  }
  // The force the rig put on the chassis along x; the vehicle's on the rig is its opposite.
  sum_.drawbar_pull -= system.body_drive_force(carriage_);
  for (const Vec3& f : shoe_forces) {
    sum_.ground_fx += f.x;
    sum_.ground_fz += f.z;
  }
  ++steps_;
}

VehicleRig::Progress VehicleRig::progress() const {
  const cosim::RigRow& r = sum_;
  return {steps_,
          {r.chassis_vx, r.sprocket_speed[0], r.sprocket_speed[1], r.sprocket_torque[0], r.sprocket_torque[1],
           r.track_speed, r.drawbar_pull, r.ground_fx, r.ground_fz}};
}

void VehicleRig::restore(const Progress& p) {
  cosim::RigRow& r = sum_;
  r = {};
  const std::array<double, 9>& v = p.sums;
  r.chassis_vx = v[0], r.sprocket_speed[0] = v[1], r.sprocket_speed[1] = v[2];
  r.sprocket_torque[0] = v[3], r.sprocket_torque[1] = v[4], r.track_speed = v[5];
  r.drawbar_pull = v[6], r.ground_fx = v[7], r.ground_fz = v[8];
  steps_ = p.steps;
}

cosim::RigRow VehicleRig::take_row(const MultibodySystem& system) {
  cosim::RigRow r;
  if (steps_ > 0) {
    const double n = static_cast<double>(steps_);
    r.chassis_vx = sum_.chassis_vx / n;
    for (int i = 0; i < 2; ++i) {
      r.sprocket_speed[i] = sum_.sprocket_speed[i] / n;
      r.sprocket_torque[i] = sum_.sprocket_torque[i] / n;
    }
    r.track_speed = sum_.track_speed / n;
    r.drawbar_pull = sum_.drawbar_pull / n;
    r.ground_fx = sum_.ground_fx / n;
    r.ground_fz = sum_.ground_fz / n;
  }
  sum_ = {};
  steps_ = 0;
  r.t = system.time();
  r.phase = cosim::rig_targets(settings_, r.t).phase;
  const BodyState chassis = system.state(vehicle_.chassis());
  r.chassis_x = chassis.position.x;
  r.chassis_z = chassis.position.z;
  const Vec3 forward = rotate(chassis.orientation, {1.0, 0.0, 0.0});
  r.pitch_deg = std::asin(std::clamp(forward.z, -1.0, 1.0)) * 180.0 / std::numbers::pi;
  r.weight = weight_;
  return r;
}

}  // namespace trackcosim::vehicle
