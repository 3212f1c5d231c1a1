#include "vehicle_node/output/vehicle_vtk_series.h"

#include <cstdio>

#include "io/output_file.h"
#include "io/vtk_xml.h"

namespace trackcosim::vehicle {
namespace {

/// "vehicle_000042": the frame's .vtm and folder name (six digits sort up to a million frames).
std::string frame_name(std::size_t frame) {
  char name[32];
  std::snprintf(name, sizeof name, "vehicle_%06zu", frame);
  return name;
}

std::string vtm_file(std::size_t frame) { return "vtk/" + frame_name(frame) + ".vtm"; }

std::array<std::vector<LocalSphere>, 2> spheres_of(const TrackedVehicle& v, ShoeSpheres which) {
  if (which == ShoeSpheres::kTerrain) return {v.terrain_shoe_spheres(Side::kLeft), v.terrain_shoe_spheres(Side::kRight)};
  return {v.shoe_spheres(Side::kLeft), v.shoe_spheres(Side::kRight)};
}

}  // namespace

VehicleVtkSeries::VehicleVtkSeries(const TrackedVehicle& vehicle, ShoeSpheres spheres,
                                   const SimulationSettings& settings, const std::filesystem::path& folder,
                                   const std::vector<double>& earlier_rows)
    : drawing_(draw_vehicle(vehicle, spheres_of(vehicle, spheres))),
      interval_(vtk_interval(settings)),
      encoding_(settings.vtk_format),
      rows_per_frame_(rows_per_vtk_frame(settings)),
      rows_(earlier_rows.size()),
      folder_(folder) {
  if (rows_per_frame_ == 0) return;
  io::create_output_folder(folder_ / "vtk");
  std::vector<io::PvdSeries::Entry> earlier;
  for (std::size_t row = 0; row < earlier_rows.size(); row += rows_per_frame_)
    earlier.push_back({earlier_rows[row], vtm_file(row / rows_per_frame_)});
  pvd_.emplace(folder_ / "vehicle.pvd", std::move(earlier));
}

void VehicleVtkSeries::on_row(const MultibodySystem& system, const std::vector<Vec3>& shoe_forces) {
  const std::size_t row = rows_++;
  if (rows_per_frame_ == 0 || row % rows_per_frame_ != 0) return;
  const std::size_t frame = row / rows_per_frame_;
  write_frame(frame, system, shoe_forces);
  pvd_->add(system.time(), vtm_file(frame));
}

void VehicleVtkSeries::write_frame(std::size_t frame, const MultibodySystem& system,
                                   const std::vector<Vec3>& shoe_forces) {
  const std::string name = frame_name(frame);
  const std::filesystem::path blocks = folder_ / "vtk" / name;
  io::create_output_folder(blocks);
  const std::vector<Vec3> forces = shoe_forces_by_body(drawing_, shoe_forces);
  io::write_output_file(blocks / "bodies.vtu",
                        [&](std::ostream& out) { write_bodies_vtu(out, drawing_, system, encoding_); });
  io::write_output_file(blocks / "spheres.vtu",
                        [&](std::ostream& out) { write_spheres_vtu(out, drawing_, system, encoding_); });
  io::write_output_file(blocks / "frames.vtu",
                        [&](std::ostream& out) { write_frames_vtu(out, drawing_, system, forces, encoding_); });
  io::write_output_file(folder_ / "vtk" / (name + ".vtm"), [&](std::ostream& out) {
    io::vtk::write_multiblock(out, {{"bodies", name + "/bodies.vtu"},
                                    {"spheres", name + "/spheres.vtu"},
                                    {"frames", name + "/frames.vtu"}});
  });
}

nlohmann::json VehicleVtkSeries::run_json() const {
  if (rows_per_frame_ == 0) return nullptr;
  return {{"series", "vehicle.pvd"},
          {"interval", interval_},
          {"format", std::string(io::vtk::encoding_name(encoding_))},
          {"bodies", drawing_.bodies.size()},
          {"spheres", drawing_.sphere_count()}};
}

}  // namespace trackcosim::vehicle
