#pragma once
// Rows of vehicle.csv and shoes.csv, recorded in memory during the run and written through
// io::write_output_file at the end (or when the run stops on an error), so a file on disk is
// always complete. Columns (SI units, world frame, quaternions w,x,y,z; docs/vehicle.md):
//   vehicle.csv: t, chassis x y z qw qx qy qz vx vy vz wx wy wz, sprocket_torque_{left,right}
//                (N m, motor on sprocket), sprocket_speed_{left,right} (rad/s),
//                idler_travel_{left,right} (m), road_wheel_fz_{left,right}_<i> (N, vertical
//                force of the track on each road wheel, + up)
//   shoes.csv:   t, shoe, side, x y z qw qx qy qz vx vy vz wx wy wz, fx fy fz (ground force, N:
//                the rigid ground's contact force standalone, the terrain's force in a
//                co-simulation)

#include <filesystem>
#include <string>
#include <vector>

#include "vehicle_node/mbd/multibody_system.h"
#include "vehicle_node/track/tracked_vehicle.h"

namespace trackcosim::vehicle {

class VehicleRecorder {
 public:
  explicit VehicleRecorder(const TrackedVehicle& vehicle);

  /// Appends one row to vehicle.csv and one row per shoe to shoes.csv for the current state,
  /// with each shoe's rigid-ground contact force.
  void record(const MultibodySystem& system);
  /// The same with the given force on each shoe, both tracks in one order (left, then right):
  /// a co-simulation's terrain forces, which the system holds as external forces, not contacts.
  void record(const MultibodySystem& system, const std::vector<Vec3>& shoe_forces);
  std::size_t frames() const { return frames_; }

  /// Writes DIR/vehicle.csv and DIR/shoes.csv; throws io::OutputError.
  void write(const std::filesystem::path& folder) const;

  /// The files' text so far (headers included), for a checkpoint; restore() continues from it.
  const std::string& vehicle_text() const { return vehicle_csv_; }
  const std::string& shoes_text() const { return shoes_csv_; }
  void restore(std::size_t frames, std::string vehicle_text, std::string shoes_text);

 private:
  const TrackedVehicle& vehicle_;
  std::string vehicle_csv_;
  std::string shoes_csv_;
  std::size_t frames_ = 0;
};

}  // namespace trackcosim::vehicle
