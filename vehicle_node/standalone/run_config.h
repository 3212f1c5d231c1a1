#pragma once
// A vehicle config file as a whole: the vehicle template (track/), the driver (driver/), the
// rigid ground of standalone mode (ground/) and the simulation settings, each section read by
// its own module. One document, JSON with comments; every key is documented in docs/vehicle.md.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "io/vtk_xml.h"
#include "vehicle_node/driver/driver.h"
#include "vehicle_node/ground/ground_settings.h"
#include "vehicle_node/track/vehicle_template.h"

namespace trackcosim::vehicle {

/// A dashpot between the chassis and the world for the first `until` seconds
/// (MultibodySystem::set_world_damping at rate 1 / time_constant): it takes the bounce out of the
/// vehicle's landing on its ground, and carries none of its weight at rest (docs/vehicle.md,
/// "Rest damping"). until 0: none.
struct RestDamping {
  double until = 0.0;          ///< s
  double time_constant = 0.0;  ///< s, >= the step
};

struct SimulationSettings {
  double step = 1e-3;             ///< s
  double end_time = 5.0;          ///< s
  double output_interval = 0.01;  ///< s between rows of vehicle.csv / frames of shoes.csv
  /// s between frames of the VTK series (output/vehicle_vtk_series.h): unset, the output
  /// interval (it may come from the command line); 0, none; else a whole multiple of it, so
  /// that every frame falls on a vehicle.csv row.
  std::optional<double> vtk_interval;
  io::vtk::Encoding vtk_format = io::vtk::Encoding::Binary;  ///< of the VTK series (io/vtk_xml.h)
  RestDamping rest_damping;
};

/// The VTK interval in effect (s, 0: no series).
inline double vtk_interval(const SimulationSettings& s) { return s.vtk_interval.value_or(s.output_interval); }
/// vehicle.csv rows per VTK frame (0: no series); s must have passed check_simulation_settings.
std::size_t rows_per_vtk_frame(const SimulationSettings& s);

struct RunConfig {
  std::string source;             ///< file name, for messages and run.json
  nlohmann::json document;        ///< as parsed (comments dropped), for run.json
  VehicleTemplate vehicle;
  DriverSettings driver;
  GroundSettings ground;
  SimulationSettings simulation;
};

/// Throws io::ConfigError "<file>: <json path>: <why>".
RunConfig load_run_config(const std::filesystem::path& file);
RunConfig parse_run_config(std::string_view text, const std::string& source_name);

/// Re-checks the simulation settings after command-line overrides (step > 0, output interval
/// >= step, end time >= 0, at most 1e12 steps, VTK interval a whole multiple of the output
/// interval); throws std::invalid_argument naming the option.
void check_simulation_settings(const SimulationSettings& s);

}  // namespace trackcosim::vehicle
