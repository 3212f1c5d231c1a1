#pragma once
// The vehicle's geometry over time as one ParaView series (docs/vehicle.md, "VTK series"):
// DIR/vehicle.pvd indexes frame f at its time as vtk/vehicle_<f, 6 digits>.vtm, a multiblock of
// three blocks in vtk/vehicle_<f>/ (bodies.vtu, spheres.vtu, frames.vtu: vehicle_vtk_blocks.h).
// A frame is written on every rows_per_frame-th vehicle.csv row, the first row included, so
// its time is that row's t. Each frame's files are complete before the .pvd names them, and
// the .pvd is rewritten atomically (io/pvd_series.h), so a killed run leaves a valid series.
//
// A resumed co-simulation continues the series from the rows its checkpoint kept: the frames
// of those rows are listed again (their files are already in the folder) and numbering goes on.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/pvd_series.h"
#include "vehicle_node/output/vehicle_vtk_blocks.h"
#include "vehicle_node/standalone/run_config.h"

namespace trackcosim::vehicle {

/// Which shoe spheres the spheres block shows: those of the run's ground contact.
enum class ShoeSpheres { kRigidGround, kTerrain };

class VehicleVtkSeries {
 public:
  /// Creates DIR/vtk/ and DIR/vehicle.pvd, listing the frames of `earlier_rows` (the t of each
  /// vehicle.csv row a resumed run keeps), unless the settings' VTK interval is 0: then it
  /// writes nothing, ever. Throws io::OutputError.
  VehicleVtkSeries(const TrackedVehicle& vehicle, ShoeSpheres spheres, const SimulationSettings& settings,
                   const std::filesystem::path& folder, const std::vector<double>& earlier_rows = {});

  /// Call after each vehicle.csv row: writes a frame of the current state when one is due.
  /// `shoe_forces`: the row's shoes.csv forces (left track, then right).
  void on_row(const MultibodySystem& system, const std::vector<Vec3>& shoe_forces);

  std::size_t frames() const { return pvd_ ? pvd_->entries().size() : 0; }
  /// run.json's "vtk" entry (series, interval, bodies, spheres per frame); null when off.
  nlohmann::json run_json() const;

 private:
  void write_frame(std::size_t frame, const MultibodySystem& system, const std::vector<Vec3>& shoe_forces);

  VehicleDrawing drawing_;
  double interval_;
  io::vtk::Encoding encoding_;
  std::size_t rows_per_frame_;  ///< 0: off
  std::size_t rows_ = 0;        ///< vehicle.csv rows so far
  std::filesystem::path folder_;
  std::optional<io::PvdSeries> pvd_;
};

}  // namespace trackcosim::vehicle
