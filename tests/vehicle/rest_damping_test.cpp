// simulation.rest_damping (docs/vehicle.md, "Rest damping"): read and checked with the config,
// and while it lasts the chassis is held back by its dashpot to the world.

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "track_test_util.h"
#include "vehicle_node/standalone/standalone_run.h"

namespace trackcosim::vehicle {
namespace {

const std::string kShipped = R"("rest_damping": { "until": 0.5, "time_constant": 0.05 })";

/// The shipped M113 with its rest_damping block replaced by `block` (empty: none).
std::string m113_with(const std::string& block) {
  std::ifstream in(test::shipped_config("m113"));
  std::ostringstream s;
  s << in.rdbuf();
  std::string text = s.str();
  const auto at = text.find(kShipped);
  EXPECT_NE(at, std::string::npos) << "configs/vehicles/m113.json no longer has " << kShipped;
  if (at == std::string::npos) return text;
  if (!block.empty()) return text.replace(at, kShipped.size(), block);
  // Drop the block and the comma after output_interval, which it follows.
  const auto comma = text.rfind("\"output_interval\": 0.02,", at) + std::string("\"output_interval\": 0.02").size();
  return text.erase(comma, at + kShipped.size() - comma);
}

std::string error_of(const std::string& text) { return test::config_error_of(text, "m113.json"); }

TEST(RestDamping, ShippedHeavyVehiclesSetItBeforeTheirDriverStarts) {
  const RunConfig m113 = load_run_config(test::shipped_config("m113"));
  EXPECT_DOUBLE_EQ(m113.simulation.rest_damping.until, 0.5);
  EXPECT_DOUBLE_EQ(m113.simulation.rest_damping.time_constant, 0.05);
  EXPECT_EQ(parse_run_config(m113_with(""), "m113.json").simulation.rest_damping.until, 0.0);
}

TEST(RestDamping, ATimeConstantBelowTheStepOrAMissingKeyIsAConfigError) {
  EXPECT_EQ(error_of(m113_with(R"("rest_damping": { "until": 0.5, "time_constant": 0.0005 })")),
            "m113.json: simulation.rest_damping: time_constant (5e-04 s) must be >= the step (0.001 s): the "
            "dashpot is explicit");
  EXPECT_EQ(error_of(m113_with(R"("rest_damping": { "until": 0.5 })")),
            "m113.json: simulation.rest_damping.time_constant: required key is missing");
  EXPECT_EQ(error_of(m113_with(R"("rest_damping": { "until": -1, "time_constant": 0.05 })"))
                .rfind("m113.json: simulation.rest_damping.until: ", 0),
            0u);
}

/// How far the chassis of the M113 comes down on flat rigid ground between 0.01 and 0.3 s.
double chassis_drop(const std::string& config_text, const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("trackcosim_rest_damping_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "m113.json") << config_text;
  StandaloneOptions o;
  o.config = dir / "m113.json";
  o.out_dir = dir / "out";
  o.end_time = 0.3;
  o.output_interval = 0.01;
  o.ground_profile = GroundProfile::kFlat;
  std::ostringstream progress;
  (void)run_standalone(o, progress);
  std::ifstream csv(dir / "out" / "vehicle.csv");
  std::string header, line;
  std::getline(csv, header);  // t,x,y,z,...: z is the fourth column
  auto z_of = [](const std::string& row) {
    std::istringstream cells(row);
    std::string cell;
    for (int i = 0; i < 4; ++i) std::getline(cells, cell, ',');
    return std::stod(cell);
  };
  std::getline(csv, line);
  const double first = z_of(line);
  double last = first;
  while (std::getline(csv, line))
    if (!line.empty()) last = z_of(line);
  std::filesystem::remove_all(dir);
  return first - last;
}

// The vehicle starts a few centimetres above its loaded height. Held back with a time constant of
// one step, the chassis falls at about g tau = 1 cm/s at most, so it comes down a small part of
// the way it falls free.
TEST(RestDamping, WhileItLastsTheChassisIsHeldBack) {
  const double free_drop = chassis_drop(m113_with(""), "free");
  const double held_drop =
      chassis_drop(m113_with(R"("rest_damping": { "until": 1.0, "time_constant": 0.001 })"), "held");
  EXPECT_GT(free_drop, 0.02);
  EXPECT_LT(held_drop, 0.25 * free_drop) << "free " << free_drop << " m, held " << held_drop << " m";
}

}  // namespace
}  // namespace trackcosim::vehicle
