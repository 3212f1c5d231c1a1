#pragma once
// The rows a co-simulation's vehicle streams as it goes (coupled_run.h), as observers of its
// coupling loop (coupled_observer.h): timing.csv every coupling step; every output interval
// vehicle.csv and shoes.csv (with the terrain's forces of the interval: there is no rigid ground
// whose contact forces they could show), the rig's row and a VTK frame. A resumed run starts
// them with its checkpoint's rows; a checkpoint keeps the rows so far.

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "io/csv_stream.h"
#include "vehicle_node/coupled/coupled_observer.h"
#include "vehicle_node/output/vehicle_vtk_series.h"
#include "vehicle_node/rig/vehicle_control.h"
#include "vehicle_node/standalone/run_config.h"
#include "vehicle_node/standalone/vehicle_recorder.h"
#include "vehicle_node/track/tracked_vehicle.h"

namespace trackcosim::vehicle {

/// timing.csv: step, t, the vehicle's compute and wait seconds, the terrain's vertical force on
/// all shoes (N: the vehicle's weight once settled). Flushed every `every` coupling steps, with
/// the output rows, and at least every second.
class TimingRows : public CoupledObserver {
 public:
  /// `before`: the rows after the header of a resumed run's timing.csv.
  TimingRows(const std::filesystem::path& folder, std::string_view before, std::size_t every);
  void on_step(const MultibodySystem& system, const CoupledStep& step) override;
  void flush() { csv_.flush(); }
  std::string text() { return csv_.text(); }

 private:
  io::CsvStream csv_;
  std::size_t every_;
};

/// vehicle.csv, shoes.csv, rig.csv and the VTK series, every `every` coupling steps.
class OutputRows : public CoupledObserver {
 public:
  /// Throws std::invalid_argument, before touching a file, when `before` has other columns (a
  /// checkpoint of another vehicle).
  OutputRows(const TrackedVehicle& vehicle, const RunConfig& config, VehicleControl& control,
             const std::filesystem::path& folder, const RecordedRows& before, std::size_t every);
  void on_step(const MultibodySystem& system, const CoupledStep& step) override;
  /// The rows so far, for a checkpoint.
  RecordedRows rows() { return recorder_.rows(); }
  /// run.json's "vtk" entry.
  nlohmann::json vtk_json() const { return vtk_.run_json(); }

 private:
  VehicleControl& control_;
  std::size_t every_;
  VehicleRecorder recorder_;
  VehicleVtkSeries vtk_;
};

}  // namespace trackcosim::vehicle
