#include "vehicle_node/coupled/coupled_outputs.h"

#include <sstream>

#include <nlohmann/json.hpp>

#include "io/output_file.h"
#include "io/version.h"

namespace trackcosim::vehicle {

std::string timing_row(std::size_t k, double t, double compute, double wait, double fz) {
  std::ostringstream row;
  row << k << ',' << t << ',' << compute << ',' << wait << ',' << fz;
  return row.str();
}

void write_run_json(const CoupledOptions& o, const RunConfig& config, const TrackedVehicle& vehicle,
                    const CoupledSummary& summary, double coupling_step, double surface_height, double terrain_step,
                    std::size_t first, const nlohmann::json& vtk, const nlohmann::json& driver) {
  nlohmann::json run;
  run["program"] = "vehicle_node";
  run["version"] = std::string(io::kTrackcosimVersion);
  run["mode"] = "cosim";
  run["transport"] = o.transport;
  run["config_file"] = config.source;
  run["coupling_step"] = coupling_step;
  run["coupling_scheme"] = o.scheme;
  run["shoe_loads"] = o.shoe_loads;
  // The pitch radius is not in the config: it follows from the sprocket radius and the shoes'
  // geometry (docs/vehicle.md, "Wrapping"): 8% above the config's radius for the light robot,
  // 16% for the M113.
  run["vehicle"] = {{"name", config.vehicle.name},
                    {"total_mass_kg", config.vehicle.total_mass()},
                    {"shoes_per_track", vehicle.shoe_count() / 2},
                    {"sprocket_pitch_radius_m", vehicle.sprocket_pitch_radius()}};
  run["driver"] = driver;
  if (!vtk.is_null()) run["vtk"] = vtk;
  run["terrain"] = {{"particles", summary.particles}, {"surface_height", surface_height}, {"terrain_step", terrain_step}};
  run["result"] = {{"coupling_steps", summary.coupling_steps},
                   {"simulated_s", summary.simulated_seconds},
                   {"wall_s", summary.wall_seconds},
                   {"wait_s", summary.wait_seconds},
                   {"distance_m", summary.distance_m},
                   {"below_top_m", summary.below_top_m}};
  if (!o.restart.empty()) run["resumed_from"] = {{"checkpoint", o.restart.string()}, {"coupling_step", first}};
  if (!summary.stopped_by.empty())
    run["stopped"] = {{"by", summary.stopped_by}, {"coupling_step", summary.coupling_steps},
                      {"checkpoint", summary.checkpoint.string()}};
  run["config"] = config.document;
  io::write_output_file(o.out_dir / "run.json", [&run](std::ostream& out) { out << run.dump(2) << '\n'; });
}

}  // namespace trackcosim::vehicle
