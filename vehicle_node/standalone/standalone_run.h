#pragma once
// Standalone mode of vehicle_node: the vehicle of a config file driven over the analytic rigid
// ground, no terrain node. The step loop is: driver -> tensioner stops -> engine step ->
// record every output interval -> progress line. Outputs in the run folder: vehicle.csv,
// shoes.csv (vehicle_recorder.h), the VTK series vehicle.pvd + vtk/ (output/vehicle_vtk_series.h)
// and run.json (the resolved config and what the run derived).

#include <filesystem>
#include <optional>
#include <ostream>

#include "vehicle_node/ground/ground_settings.h"
#include "vehicle_node/standalone/run_config.h"

namespace trackcosim::vehicle {

struct StandaloneOptions {
  std::filesystem::path config;
  std::filesystem::path out_dir = "output/vehicle";
  std::optional<GroundProfile> ground_profile;   ///< overrides rigid_ground.profile
  std::optional<double> end_time;                ///< overrides simulation.end_time
  std::optional<double> step;                    ///< overrides simulation.step
  std::optional<double> output_interval;         ///< overrides simulation.output_interval
  double progress_seconds = 5.0;                 ///< wall time between progress lines (<= 0: none)
  std::filesystem::path rig;                     ///< a drawbar-pull rig file in place of the driver (rig/)
};

struct RunSummary {
  std::size_t steps = 0;
  std::size_t bodies = 0;
  double wall_seconds = 0.0;
  double simulated_seconds = 0.0;
  double max_joint_violation = 0.0;   ///< largest over all steps, m
};

/// Throws io::ConfigError (config), std::invalid_argument (overrides), io::OutputError
/// (output folder) and std::runtime_error when the simulation diverges.
RunSummary run_standalone(const StandaloneOptions& options, std::ostream& progress);

}  // namespace trackcosim::vehicle
