// Wrapping geometry: the hull of the wheel circles, pins at equal pitch on it, closure of the
// loop, and the shoe count checked against the perimeter over the tensioner travel.

#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "track_test_util.h"
#include "vehicle_node/track/track_wrapping.h"

namespace trackcosim::vehicle {
namespace {

double distance(PlanePoint a, PlanePoint b) { return std::hypot(a.x - b.x, a.z - b.z); }

/// Sprocket and idler only, same radius, d apart: the hull is a stadium.
TrackTemplate stadium(double d, double radius, double pitch, std::uint32_t count) {
  TrackTemplate t;
  t.sprocket.position = {0.0, 0.0};
  t.sprocket.wheel.radius = radius;
  t.idler.position = {-d, 0.0};
  t.idler.wheel.radius = radius;
  t.idler.tensioner.direction = {-1.0, 0.0};
  t.idler.tensioner.min_travel = -0.2;
  t.idler.tensioner.max_travel = 0.2;
  t.shoes.count = count;
  t.shoes.pitch = pitch;
  t.shoes.pin_offset = 0.0;
  return t;
}

TEST(TrackWrapping, StadiumHullLengthIsTwoSpansPlusOneCircle) {
  // L = 2 d + 2 pi R for two equal circles d apart.
  const HullPath path = HullPath::of_circles({{{0, 0}, 0.5}, {{3, 0}, 0.5}});
  EXPECT_NEAR(path.length(), 2 * 3.0 + 2 * std::numbers::pi * 0.5, 1e-12);
  EXPECT_EQ(path.arc_count(), 2u);
  // Starts at the bottom of the lowest (first) circle, heading forward.
  EXPECT_NEAR(path.point_at(0).x, 0.0, 1e-12);
  EXPECT_NEAR(path.point_at(0).z, -0.5, 1e-12);
  EXPECT_NEAR(path.point_at(1.0).x, 1.0, 1e-12);
}

TEST(TrackWrapping, InnerCirclesAreNotOnTheHull) {
  // A small circle inside the stadium and one inside a big circle change nothing.
  const HullPath a = HullPath::of_circles({{{0, 0}, 0.5}, {{3, 0}, 0.5}});
  const HullPath b = HullPath::of_circles({{{0, 0}, 0.5}, {{3, 0}, 0.5}, {{1.5, 0.1}, 0.2}, {{0.1, 0}, 0.3}});
  EXPECT_NEAR(a.length(), b.length(), 1e-12);
}

TEST(TrackWrapping, PinsLieOnTheHullAtEqualPitchAndTheLoopCloses) {
  const TrackTemplate t = stadium(3.0, 0.5, 0.15, 60);
  const TrackWrap w = wrap_track(t);
  ASSERT_EQ(w.pins.size(), 60u);
  const PlanePoint idler = w.idler_center;
  for (std::size_t i = 0; i < w.pins.size(); ++i) {
    const PlanePoint p = w.pins[i];
    // On a straight span (z = +-R between the centres) or on one of the two arcs.
    const bool on_span = p.x <= 1e-9 && p.x >= idler.x - 1e-9 && std::abs(std::abs(p.z) - 0.5) < 1e-9;
    const bool on_arc = std::abs(distance(p, {0, 0}) - 0.5) < 1e-9 || std::abs(distance(p, idler) - 0.5) < 1e-9;
    EXPECT_TRUE(on_span || on_arc) << "pin " << i << " at (" << p.x << ", " << p.z << ")";
    EXPECT_NEAR(distance(p, w.pins[(i + 1) % w.pins.size()]), 0.15, 1e-9) << "pin " << i;
  }
  EXPECT_LT(w.closure_gap, 1e-9);
}

TEST(TrackWrapping, PinCircleKeepsTheShoeChordsOffTheWheel) {
  // One sphere of radius 0.01 at x = 0.02 on the pin plane, wheel radius 0.1, pitch 0.06:
  // d = sqrt(0.11^2 - 0.02^2), R = sqrt(d^2 + 0.03^2), above r + pin_offset = 0.11.
  ShoeTemplate shoes;
  shoes.pitch = 0.06;
  shoes.pin_offset = 0.01;
  shoes.spheres = {{{0.02, 0.0, 0.0}, 0.01}};
  WheelTemplate wheel;
  wheel.radius = 0.1;
  const double d = std::sqrt(0.11 * 0.11 - 0.02 * 0.02);
  EXPECT_NEAR(pin_circle_radius(shoes, wheel), std::hypot(d, 0.03), 1e-15);
  wheel.gap = 0.1;  // the sphere now runs in the gap of a double wheel: no touch
  EXPECT_NEAR(pin_circle_radius(shoes, wheel), 0.11, 1e-15);
}

TEST(TrackWrapping, TheTensionerTakesUpTheLengthOfOneMoreShoe) {
  // One more shoe adds about one pitch of chain; the idler moves out by about half a pitch
  // (the path gains 2 x travel along the two spans).
  const TrackWrap a = wrap_track(stadium(3.0, 0.5, 0.15, 60));
  const TrackWrap b = wrap_track(stadium(3.0, 0.5, 0.15, 61));
  EXPECT_NEAR(b.idler_travel - a.idler_travel, 0.075, 0.01);
  EXPECT_GT(b.path_length, a.path_length);
}

TEST(TrackWrapping, TooFewAndTooManyShoesNameTheCountsThatFit) {
  try {
    (void)wrap_track(stadium(3.0, 0.5, 0.15, 40));
    FAIL() << "40 shoes wrapped";
  } catch (const WrapError& e) {
    EXPECT_NE(std::string(e.what()).find("too few"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("shoes"), std::string::npos) << e.what();
  }
  try {
    (void)wrap_track(stadium(3.0, 0.5, 0.15, 80));
    FAIL() << "80 shoes wrapped";
  } catch (const WrapError& e) {
    const std::string why = e.what();
    EXPECT_NE(why.find("too many"), std::string::npos) << why;
    // The stadium is 6 + pi = 9.14 m at travel 0, +-0.4 m over the travel: 58 to 63 shoes.
    EXPECT_NE(why.find("takes 5"), std::string::npos) << why;
  }
}

TEST(TrackWrapping, ThesisTrackHas18DegreesBetweenShoesOnTheSprocket) {
  // Heyn 2009, figure 5.8: shoes in the end arcs are 18 degrees apart (20-tooth sprocket).
  const RunConfig c = load_run_config(test::shipped_config("excavator_thesis"));
  const TrackTemplate& t = c.vehicle.track;
  const TrackWrap w = wrap_track(t);
  const double r = pin_circle_radius(t.shoes, t.sprocket.wheel);
  int on_sprocket = 0;
  for (std::size_t i = 0; i < w.pins.size(); ++i) {
    const PlanePoint a = w.pins[i], b = w.pins[(i + 1) % w.pins.size()];
    if (std::abs(distance(a, t.sprocket.position) - r) > 1e-9 || std::abs(distance(b, t.sprocket.position) - r) > 1e-9)
      continue;
    ++on_sprocket;
    const double angle = std::abs(std::remainder(std::atan2(b.z - t.sprocket.position.z, b.x - t.sprocket.position.x) -
                                                     std::atan2(a.z - t.sprocket.position.z, a.x - t.sprocket.position.x),
                                                 2 * std::numbers::pi));
    // 18 degrees on the circle radius + pin_offset; the pad spheres keep the chords off the
    // sprocket, which puts the pins 7 mm further out: 2 asin(p / 2R) = 17.85 degrees.
    EXPECT_NEAR(angle * 180 / std::numbers::pi, 18.0, 0.2);
  }
  EXPECT_GE(on_sprocket, 7);  // about half the sprocket is wrapped
  EXPECT_EQ(w.pins.size(), 46u);
  EXPECT_GE(w.idler_travel, t.idler.tensioner.min_travel);
  EXPECT_LE(w.idler_travel, t.idler.tensioner.max_travel);
}

TEST(TrackWrapping, ShippedVehiclesWrapWithinTheirTensionerTravel) {
  for (const char* name : {"excavator_thesis", "ndia_light_robot", "m113"}) {
    const RunConfig c = load_run_config(test::shipped_config(name));
    const TrackWrap w = wrap_track(c.vehicle.track);
    const TensionerTemplate& ten = c.vehicle.track.idler.tensioner;
    std::printf("%s: %zu shoes, path %.4f m, idler travel %.4f m in [%g, %g]\n", name, w.pins.size(), w.path_length,
                w.idler_travel, ten.min_travel, ten.max_travel);
    EXPECT_LT(w.closure_gap, 1e-9) << name;
    // Comfortably inside, so the tensioner can move both ways.
    EXPECT_GT(w.idler_travel, ten.min_travel + 0.2 * (ten.max_travel - ten.min_travel)) << name;
    EXPECT_LT(w.idler_travel, ten.max_travel - 0.2 * (ten.max_travel - ten.min_travel)) << name;
  }
}

}  // namespace
}  // namespace trackcosim::vehicle
