#pragma once
// What moves the vehicle in a run: the config's driver, or a drawbar-pull rig in its place
// (vehicle_node --rig FILE). Both run loops (standalone/ and coupled/) go through this one
// object, so a rig behaves the same on rigid ground and on the terrain.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cosim/drawbar_rig.h"
#include "vehicle_node/rig/vehicle_rig.h"
#include "vehicle_node/standalone/run_config.h"

namespace trackcosim::vehicle {

class VehicleControl {
 public:
  /// What a co-simulation checkpoint keeps of a rig: rig.csv's text so far and the row in progress.
  struct RigCheckpoint {
    std::string csv;
    VehicleRig::Progress progress;
  };

  /// `rig_file` empty: the config's driver. Else the rig replaces the driver, adds its speed
  /// control to `system`, tilts gravity for its slope and writes rig.csv in `out_dir`; a resumed
  /// run (`resume`) starts rig.csv with the checkpoint's rows and the row in progress with its
  /// sums. Throws io::ConfigError for a bad rig file, std::invalid_argument for a checkpoint's
  /// rig.csv of other columns.
  VehicleControl(const RunConfig& config, const std::filesystem::path& rig_file, const TrackedVehicle& vehicle,
                 MultibodySystem& system, const std::filesystem::path& out_dir,
                 const RigCheckpoint* resume = nullptr);

  /// Sets the inputs for the step that starts at t (the driver's or the rig's, and the rest
  /// damping of the chassis while t < its `until`). Call before every step.
  void apply(MultibodySystem& system, double t);
  /// With a rig: after every step, what the rig measures over it; `shoe_forces` as in shoes.csv.
  bool has_rig() const { return rig_.has_value(); }
  void after_step(const MultibodySystem& system, const std::vector<Vec3>& shoe_forces);
  /// At each output row: a rig.csv row, the means since the last one (nothing without a rig).
  void record(const MultibodySystem& system);

  /// With a rig, what a checkpoint keeps of it now (flushes rig.csv); nothing without one.
  std::optional<RigCheckpoint> rig_checkpoint();

  /// run.json's "driver" entry: the driver's mode, or the rig's settings.
  nlohmann::json run_json() const;

 private:
  const DriverSettings& driver_;
  const RestDamping rest_damping_;
  const TrackedVehicle& vehicle_;
  std::optional<VehicleRig> rig_;
  std::optional<cosim::RigCsv> csv_;
};

}  // namespace trackcosim::vehicle
