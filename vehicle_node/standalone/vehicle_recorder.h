#pragma once
// vehicle.csv and shoes.csv, written as the run goes (io::CsvStream): each file is created with
// its header when the recorder is, every record() appends whole rows and flushes both files, so
// a run that crashes or is killed leaves every row up to its last output step (a kill in the
// middle of a write may leave a last partial line, which a reader drops). Columns (SI units,
// world frame, quaternions w,x,y,z; docs/vehicle.md):
//   vehicle.csv: t, chassis x y z qw qx qy qz vx vy vz wx wy wz, sprocket_torque_{left,right}
//                (N m, motor on sprocket), sprocket_speed_{left,right} (rad/s),
//                idler_travel_{left,right} (m), road_wheel_fz_{left,right}_<i> (N, vertical
//                force of the track on each road wheel, + up)
//   shoes.csv:   t, shoe, side, x y z qw qx qy qz vx vy vz wx wy wz, fx fy fz (ground force, N:
//                the rigid ground's contact force standalone, the terrain's force in a
//                co-simulation)

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "io/csv_stream.h"
#include "vehicle_node/mbd/multibody_system.h"
#include "vehicle_node/track/tracked_vehicle.h"

namespace trackcosim::vehicle {

/// What a co-simulation checkpoint keeps of the files, so that a resumed run writes them again.
struct RecordedRows {
  std::size_t frames = 0;
  std::string vehicle_csv, shoes_csv;  ///< the files' text so far, headers included
};

/// The t of each vehicle.csv row of `rows`, exactly as written (a resumed run's VTK series lists
/// its earlier frames at these times). Throws std::invalid_argument on a row that does not
/// start with a number.
std::vector<double> row_times(const RecordedRows& rows);

/// The rigid ground's force on every shoe over the last step, left track then right (shoes.csv's order).
std::vector<Vec3> ground_forces(const MultibodySystem& system, const TrackedVehicle& vehicle);

class VehicleRecorder {
 public:
  /// Creates (truncates) DIR/vehicle.csv and DIR/shoes.csv with their headers, followed by the
  /// rows of `before` (a resumed run's). Throws std::invalid_argument, before touching any file,
  /// when `before` has other columns (a checkpoint of another vehicle); io::OutputError.
  VehicleRecorder(const TrackedVehicle& vehicle, const std::filesystem::path& folder, const RecordedRows& before = {});

  /// Appends one row to vehicle.csv and one row per shoe to shoes.csv for the current state,
  /// with each shoe's rigid-ground contact force, and flushes both files.
  void record(const MultibodySystem& system);
  /// The same with the given force on each shoe, both tracks in one order (left, then right):
  /// a co-simulation's terrain forces, which the system holds as external forces, not contacts.
  void record(const MultibodySystem& system, const std::vector<Vec3>& shoe_forces);
  std::size_t frames() const { return frames_; }

  /// The rows so far, for a checkpoint (read back from the flushed files).
  RecordedRows rows();

 private:
  /// The vehicle.csv header and the rows of `before` after each header (checked against them).
  struct Opening {
    std::string vehicle_header;
    std::string_view vehicle_rows, shoes_rows;
  };
  static Opening opening(const TrackedVehicle& vehicle, const RecordedRows& before);
  VehicleRecorder(const TrackedVehicle& vehicle, const std::filesystem::path& folder, std::size_t frames,
                  const Opening& o);

  const TrackedVehicle& vehicle_;
  std::size_t frames_;
  io::CsvStream vehicle_csv_;
  io::CsvStream shoes_csv_;
  std::string row_;  ///< the row being formatted, reused
};

}  // namespace trackcosim::vehicle
