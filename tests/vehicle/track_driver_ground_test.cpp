// Driver time profiles and the analytic rigid grounds.

#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "io/config_error.h"
#include "io/json_fields.h"
#include "vehicle_node/driver/driver.h"
#include "vehicle_node/ground/ground_settings.h"

namespace trackcosim::vehicle {
namespace {

TEST(TimeProfile, IsPiecewiseLinearAndHeldOutsideItsPoints) {
  const TimeProfile p({{1.0, 0.0}, {3.0, 4.0}, {4.0, 4.0}});
  EXPECT_DOUBLE_EQ(p(0.0), 0.0);   // before the first point: first value
  EXPECT_DOUBLE_EQ(p(2.0), 2.0);   // half-way from (1, 0) to (3, 4)
  EXPECT_DOUBLE_EQ(p(3.5), 4.0);
  EXPECT_DOUBLE_EQ(p(10.0), 4.0);  // after the last point: last value
}

DriverSettings driver_from(const std::string& text) {
  const nlohmann::json doc = io::parse_json_document(text, "d.json");
  return read_driver_settings(io::JsonField(doc, "d.json", "driver"));
}

TEST(Driver, SteersBySpeedDifferenceAndCoasts) {
  const DriverSettings d = driver_from(R"({"mode": "speed", "left": [[0, 1], [2, 3]], "right": 2, "max_torque": 100})");
  EXPECT_EQ(d.mode, DriveMode::kSpeed);
  EXPECT_DOUBLE_EQ(d.profile[0](1.0), 2.0);
  EXPECT_DOUBLE_EQ(d.profile[1](1.0), 2.0);
  EXPECT_DOUBLE_EQ(d.max_torque, 100.0);
  EXPECT_EQ(driver_from(R"({"mode": "coast"})").mode, DriveMode::kCoast);
}

TEST(Driver, BadProfilesAreConfigErrors) {
  try {
    driver_from(R"({"mode": "torque", "both": [[0, 1], [0, 2]]})");
    FAIL();
  } catch (const io::ConfigError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("d.json: driver.both[1][0]: times must increase strictly", 0), 0u) << e.what();
  }
  EXPECT_THROW(driver_from(R"({"mode": "coast", "both": 1})"), io::ConfigError);
  EXPECT_THROW(driver_from(R"({"mode": "speed", "left": 1})"), io::ConfigError);
}

TEST(BumpyGround, NormalIsTheNormalisedGradientOfTheHeight) {
  const BumpyGround g = BumpyGround::random(0.5, 0.05, 2.0, 42);
  for (const double x : {-3.0, 0.1, 7.7})
    for (const double y : {-1.0, 0.4}) {
      const double e = 1e-6;
      const double dx = (g.height(x + e, y) - g.height(x - e, y)) / (2 * e);
      const double dy = (g.height(x, y + e) - g.height(x, y - e)) / (2 * e);
      const double norm = std::sqrt(dx * dx + dy * dy + 1);
      const Vec3 n = g.normal(x, y);
      EXPECT_NEAR(n.x, -dx / norm, 1e-8);
      EXPECT_NEAR(n.y, -dy / norm, 1e-8);
      EXPECT_NEAR(n.z, 1 / norm, 1e-8);
    }
}

TEST(BumpyGround, RandomFieldHasItsRmsHeightAndIsReproducible) {
  const BumpyGround a = BumpyGround::random(0.0, 0.05, 2.0, 7);
  const BumpyGround b = BumpyGround::random(0.0, 0.05, 2.0, 7);
  const BumpyGround c = BumpyGround::random(0.0, 0.05, 2.0, 8);
  double sum2 = 0;
  int n = 0;
  for (double x = -100; x < 100; x += 0.37)
    for (double y = -100; y < 100; y += 0.41, ++n) sum2 += a.height(x, y) * a.height(x, y);
  EXPECT_NEAR(std::sqrt(sum2 / n), 0.05, 0.005);  // RMS over a large area, within 10%
  EXPECT_EQ(a.height(1.234, 5.678), b.height(1.234, 5.678));
  EXPECT_NE(a.height(1.234, 5.678), c.height(1.234, 5.678));
}

TEST(GroundSettings, SinusoidsFromTheConfig) {
  const nlohmann::json doc = io::parse_json_document(
      R"({"profile": "bumpy", "height": 1, "bumps": {"type": "sinusoids",
          "components": [{"amplitude": 0.1, "wavelength": 4, "phase_deg": 90}]}})",
      "g.json");
  const GroundSettings s = read_ground_settings(io::JsonField(doc, "g.json", "rigid_ground"));
  const auto ground = make_ground(s);
  // z = 1 + 0.1 sin(2 pi x / 4 + pi / 2): 1.1 at x = 0, 0.9 at x = 2.
  EXPECT_NEAR(ground->height(0, 0), 1.1, 1e-12);
  EXPECT_NEAR(ground->height(2, 5), 0.9, 1e-12);
  EXPECT_NEAR(make_ground(GroundSettings{})->height(3, 4), 0.0, 0.0);
}

}  // namespace
}  // namespace trackcosim::vehicle
