#include "vehicle_node/standalone/run_config.h"

#include <cmath>
#include <stdexcept>

#include "io/json_fields.h"
#include "io/number_text.h"
#include "vehicle_node/track/vehicle_template_loader.h"

namespace trackcosim::vehicle {
namespace {

using io::JsonField;

/// Why `vtk` is no VTK interval for output rows every `output` seconds (empty: it is).
std::string vtk_interval_problem(double vtk, double output) {
  if (!(vtk >= 0)) return "must be >= 0 (0: no VTK series)";
  const double rows = vtk / output;
  if (vtk > 0 && (std::round(rows) < 1 || std::fabs(rows - std::round(rows)) > 1e-9 * rows))
    return "must be 0 (no VTK series) or a whole multiple of the output interval (" + io::number_to_string(output) +
           " s), so that every frame falls on a vehicle.csv row; got " + io::number_to_string(vtk) + " s";
  return {};
}

RestDamping read_rest_damping(const JsonField& section) {
  section.expect_object({"until", "time_constant"});
  RestDamping d;
  d.until = section.member("until").non_negative_number();
  d.time_constant = section.member("time_constant").positive_number();
  return d;
}

std::string rest_damping_problem(const RestDamping& d, double step) {
  if (d.until > 0.0 && d.time_constant < step)
    return "time_constant (" + io::number_to_string(d.time_constant) + " s) must be >= the step (" +
           io::number_to_string(step) + " s): the dashpot is explicit";
  return {};
}

SimulationSettings read_simulation(const JsonField& section) {
  section.expect_object({"step", "end_time", "output_interval", "vtk_interval", "vtk_format", "rest_damping"});
  SimulationSettings s;
  if (const auto f = section.optional_member("step")) s.step = f->positive_number();
  if (const auto f = section.optional_member("end_time")) s.end_time = f->non_negative_number();
  if (const auto f = section.optional_member("output_interval")) {
    s.output_interval = f->positive_number();
    if (s.output_interval < s.step) f->fail("must be >= the step (" + io::number_to_string(s.step) + " s)");
  }
  if (const auto f = section.optional_member("vtk_interval")) {
    s.vtk_interval = f->non_negative_number();
    if (const std::string problem = vtk_interval_problem(*s.vtk_interval, s.output_interval); !problem.empty())
      f->fail(problem);
  }
  if (const auto f = section.optional_member("vtk_format"))
    s.vtk_format = io::vtk::parse_encoding(f->one_of({"binary", "ascii"}), "simulation.vtk_format");
  if (const auto f = section.optional_member("rest_damping")) {
    s.rest_damping = read_rest_damping(*f);
    if (const std::string problem = rest_damping_problem(s.rest_damping, s.step); !problem.empty()) f->fail(problem);
  }
  return s;
}

RunConfig read_run_config(nlohmann::json document, const std::string& source) {
  RunConfig config;
  config.source = source;
  config.document = std::move(document);
  const JsonField root(config.document, source);
  root.expect_object({"name", "chassis", "track", "contact", "gravity", "driver", "rigid_ground", "simulation"});
  config.vehicle = read_vehicle_template(root, source);
  if (const auto f = root.optional_member("driver")) config.driver = read_driver_settings(*f);
  if (const auto f = root.optional_member("rigid_ground")) config.ground = read_ground_settings(*f);
  if (const auto f = root.optional_member("simulation")) config.simulation = read_simulation(*f);
  return config;
}

}  // namespace

RunConfig load_run_config(const std::filesystem::path& file) {
  return read_run_config(io::load_json_document(file), file.string());
}

RunConfig parse_run_config(std::string_view text, const std::string& source_name) {
  return read_run_config(io::parse_json_document(text, source_name), source_name);
}

void check_simulation_settings(const SimulationSettings& s) {
  if (!(s.step > 0)) throw std::invalid_argument("--step must be > 0");
  if (!(s.end_time >= 0)) throw std::invalid_argument("--end-time must be >= 0");
  // Past this no run finishes, and past 2^64 the count would wrap to a run of 0 steps.
  constexpr double kMostSteps = 1e12;
  if (s.end_time / s.step > kMostSteps)
    throw std::invalid_argument("the end time (" + io::number_to_string(s.end_time) + " s) at the step (" +
                                io::number_to_string(s.step) + " s) asks for more than 1e12 steps: a longer step "
                                "or a shorter end time (--end-time, --step, simulation.end_time, simulation.step)");
  if (!(s.output_interval >= s.step))
    throw std::invalid_argument("the output interval (" + io::number_to_string(s.output_interval) +
                                " s) must be >= the step (" + io::number_to_string(s.step) + " s)");
  // The config checked it against its own output interval; --output-interval may have changed that.
  if (const std::string problem = vtk_interval_problem(vtk_interval(s), s.output_interval); !problem.empty())
    throw std::invalid_argument("simulation.vtk_interval " + problem);
  if (const std::string problem = rest_damping_problem(s.rest_damping, s.step); !problem.empty())
    throw std::invalid_argument("simulation.rest_damping " + problem + " (--step)");
}

std::size_t rows_per_vtk_frame(const SimulationSettings& s) {
  return static_cast<std::size_t>(std::llround(vtk_interval(s) / s.output_interval));
}

}  // namespace trackcosim::vehicle
