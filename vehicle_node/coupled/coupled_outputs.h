#pragma once
// The co-simulation run's own output rows and run.json (coupled_run.h): vehicle.csv and
// shoes.csv come from the VehicleRecorder; timing.csv is streamed like them (io::CsvStream).

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "vehicle_node/coupled/coupled_run.h"
#include "vehicle_node/standalone/run_config.h"
#include "vehicle_node/track/tracked_vehicle.h"

namespace trackcosim::vehicle {

inline constexpr std::string_view kTimingHeader = "step,t,vehicle,wait,terrain_fz";

/// One timing.csv row, without line end: step, t, vehicle compute seconds, wait seconds, terrain's vertical force (N).
std::string timing_row(std::size_t k, double t, double compute, double wait, double fz);

/// run.json: the program, the coupling, the vehicle's derived sizes (the launcher's slip needs
/// the sprocket pitch radius), what moved the vehicle (`driver`: VehicleControl::run_json), the VTK series (`vtk`, left out when null), the result, where a
/// resumed run came from and where a stopped one left its checkpoint, the resolved config.
void write_run_json(const CoupledOptions& o, const RunConfig& config, const TrackedVehicle& vehicle,
                    const CoupledSummary& summary, double coupling_step, double surface_height, double terrain_step,
                    std::size_t first, const nlohmann::json& vtk, const nlohmann::json& driver);

}  // namespace trackcosim::vehicle
