// Template errors: each bad config is one ConfigError naming the file and the JSON path.

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "io/config_error.h"
#include "track_test_util.h"

namespace trackcosim::vehicle {
namespace {

std::string m113_text() {
  std::ifstream in(test::shipped_config("m113"));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The config with `from` replaced by `to` (which must occur once).
std::string edited(const std::string& from, const std::string& to) {
  std::string text = m113_text();
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  EXPECT_EQ(text.find(from, at + 1), std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

std::string error_of(const std::string& text) { return test::config_error_of(text, "m113.json"); }

TEST(TrackTemplate, ShippedConfigsLoad) {
  for (const char* name : {"excavator_thesis", "ndia_light_robot", "m113", "m113_grousers"}) {
    const RunConfig c = load_run_config(test::shipped_config(name));
    EXPECT_EQ(c.vehicle.name, name);
    EXPECT_GT(c.vehicle.total_mass(), c.vehicle.chassis.mass);
  }
  const RunConfig m113 = load_run_config(test::shipped_config("m113"));
  // Real M113 masses: about 11 t in all (chassis 7.8 t, 2 x 63 shoes of 18 kg, wheels, arms).
  EXPECT_NEAR(m113.vehicle.total_mass(), 11325.0, 20.0);
  EXPECT_EQ(m113.vehicle.track.shoes.count, 63u);
  EXPECT_EQ(m113.vehicle.track.shoes.spheres.size(), 5u);  // 2 x 2 pad + guide horn
  EXPECT_DOUBLE_EQ(m113.vehicle.track.shoes.pin_offset, 0.03);
}

TEST(TrackTemplate, MissingFieldNamesItsPath) {
  EXPECT_EQ(error_of(edited("\"pitch\": 0.154,", "")), "m113.json: track.shoes.pitch: required key is missing");
}

TEST(TrackTemplate, UnknownKeyIsReported) {
  const std::string why = error_of(edited("\"count\": 63,", "\"count\": 63, \"colour\": 1,"));
  EXPECT_EQ(why.rfind("m113.json: track.shoes.colour: unknown key", 0), 0u) << why;
}

TEST(TrackTemplate, WrongTypeIsReported) {
  EXPECT_EQ(error_of(edited("\"mass\": 18.02,", "\"mass\": \"heavy\",")),
            "m113.json: track.shoes.mass: expected a number, got string");
  const std::string why = error_of(edited("\"count\": 63,", "\"count\": 63.5,"));
  EXPECT_EQ(why.rfind("m113.json: track.shoes.count: expected a non-negative integer", 0), 0u) << why;
}

TEST(TrackTemplate, ShoesThatCannotWrapTheWheelsAreAConfigError) {
  const std::string few = error_of(edited("\"count\": 63,", "\"count\": 50,"));
  EXPECT_EQ(few.rfind("m113.json: track.shoes.count: 50 shoes of pitch 0.154 m are too few", 0), 0u) << few;
  EXPECT_NE(few.find("which takes 6"), std::string::npos) << few;
  const std::string many = error_of(edited("\"count\": 63,", "\"count\": 75,"));
  EXPECT_EQ(many.rfind("m113.json: track.shoes.count: 75 shoes of pitch 0.154 m are too many", 0), 0u) << many;
}

TEST(TrackTemplate, TeethMustMatchThePitch) {
  const std::string why = error_of(edited("\"teeth\": 0,", "\"teeth\": 12,"));
  EXPECT_EQ(why.rfind("m113.json: track.sprocket.teeth: 12 teeth with shoe pitch 0.154 m need a pin circle", 0), 0u)
      << why;
}

TEST(TrackTemplate, BadValuesAreReported) {
  EXPECT_EQ(error_of(edited("\"travel\": [-0.1, 0.1]", "\"travel\": [0.1, -0.1]")).rfind(
                "m113.json: track.idler.tensioner.travel: must be [min, max]", 0),
            0u);
  EXPECT_EQ(error_of(edited("\"radius\": 0.305,", "\"radius\": -0.305,")),
            "m113.json: track.road_wheels.radius: must be > 0, got -0.305");
  EXPECT_EQ(error_of(edited("\"mode\": \"speed\"", "\"mode\": \"fast\"")),
            "m113.json: driver.mode: expected one of \"speed\", \"torque\", \"coast\", got \"fast\"");
  EXPECT_EQ(error_of(edited("\"type\": \"random\"", "\"type\": \"fractal\"")),
            "m113.json: rigid_ground.bumps.type: expected one of \"random\", \"sinusoids\", got \"fractal\"");
}

TEST(TrackTemplate, AMissingFileIsAConfigError) {
  EXPECT_THROW((void)load_run_config("/nonexistent/vehicle.json"), io::ConfigError);
}

}  // namespace
}  // namespace trackcosim::vehicle
