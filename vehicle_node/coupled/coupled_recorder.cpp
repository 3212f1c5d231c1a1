// The rows a co-simulation's vehicle streams as it goes (coupled_recorder.h).

#include "vehicle_node/coupled/coupled_recorder.h"

#include "vehicle_node/coupled/coupled_outputs.h"
#include "vehicle_node/coupled/shoe_messages.h"

namespace trackcosim::vehicle {

TimingRows::TimingRows(const std::filesystem::path& folder, std::string_view before, std::size_t every)
    : csv_(folder / "timing.csv", kTimingHeader), every_(every) {
  csv_.write_lines(before);
}

void TimingRows::on_step(const MultibodySystem& system, const CoupledStep& step) {
  double fz = 0;
  for (const cosim::ShoeForce& f : *step.forces) fz += f.force[2];
  csv_.write_row(timing_row(step.index, system.time(), step.compute, step.wait, fz));
  if ((step.index + 1) % every_ == 0) csv_.flush();
}

OutputRows::OutputRows(const TrackedVehicle& vehicle, const RunConfig& config, VehicleControl& control,
                       const std::filesystem::path& folder, const RecordedRows& before, std::size_t every)
    : control_(control), every_(every), recorder_(vehicle, folder, before),
      // The geometry drawn with the spheres the terrain gets; a resumed run lists its earlier frames again.
      vtk_(vehicle, ShoeSpheres::kTerrain, config.simulation, folder, row_times(before)) {}

void OutputRows::on_step(const MultibodySystem& system, const CoupledStep& step) {
  if ((step.index + 1) % every_ != 0) return;
  const std::vector<Vec3> shoe_forces = terrain_forces(*step.forces);
  recorder_.record(system, shoe_forces);  // flushes vehicle.csv and shoes.csv
  control_.record(system);
  vtk_.on_row(system, shoe_forces);
}

}  // namespace trackcosim::vehicle
