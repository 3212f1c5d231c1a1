#include "vehicle_node/rig/vehicle_control.h"

#include "io/csv_stream.h"
#include "vehicle_node/driver/driver.h"

namespace trackcosim::vehicle {

VehicleControl::VehicleControl(const RunConfig& config, const std::filesystem::path& rig_file,
                               const TrackedVehicle& vehicle, MultibodySystem& system,
                               const std::filesystem::path& out_dir, const RigCheckpoint* resume)
    : driver_(config.driver), rest_damping_(config.simulation.rest_damping), vehicle_(vehicle) {
  if (rig_file.empty()) return;
  rig_.emplace(cosim::load_rig_settings(rig_file), vehicle, system);
  if (!resume) {
    csv_.emplace(out_dir);
    return;
  }
  // Checked before the new file truncates the old one.
  const std::string_view rows = io::rows_after_header(resume->csv, cosim::kRigCsvHeader, "rig.csv");
  csv_.emplace(out_dir, rows);
  rig_->restore(resume->progress);
}

void VehicleControl::apply(MultibodySystem& system, double t) {
  if (rest_damping_.until > 0.0)
    system.set_world_damping(vehicle_.chassis(), t < rest_damping_.until ? 1.0 / rest_damping_.time_constant : 0.0);
  if (rig_)
    rig_->apply(system, t);
  else
    apply_driver(driver_, vehicle_, system, t);
}

void VehicleControl::after_step(const MultibodySystem& system, const std::vector<Vec3>& shoe_forces) {
  if (rig_) rig_->accumulate(system, shoe_forces);
}

void VehicleControl::record(const MultibodySystem& system) {
  if (rig_) csv_->write(rig_->take_row(system));
}

std::optional<VehicleControl::RigCheckpoint> VehicleControl::rig_checkpoint() {
  if (!rig_) return std::nullopt;
  return RigCheckpoint{csv_->text(), rig_->progress()};
}

nlohmann::json VehicleControl::run_json() const {
  if (!rig_) return {{"mode", drive_mode_name(driver_.mode)}};
  const cosim::RigSettings& r = rig_->settings();
  return {{"mode", "rig"},
          {"rig", {{"file", r.source},
                   {"mode", cosim::rig_mode_name(r.mode)},
                   {"slip", r.slip},
                   {"pull_n", r.pull},
                   {"track_speed_m_s", r.track_speed},
                   {"towed_speed_m_s", r.speed},
                   {"slope_deg", r.slope_deg},
                   {"rest_time_s", r.rest_time},
                   {"ramp_time_s", r.ramp_time},
                   {"settle_time_s", r.settle_time},
                   {"measure_from_s", r.measure_from()},
                   {"hitch_m", {r.hitch.x, r.hitch.y, r.hitch.z}},
                   {"weight_n", rig_->weight()}}}};
}

}  // namespace trackcosim::vehicle
