#include "vehicle_node/track/track_wrapping.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "io/number_text.h"

namespace trackcosim::vehicle {
namespace {

using io::number_to_string;

double distance(PlanePoint a, PlanePoint b) { return std::hypot(a.x - b.x, a.z - b.z); }

/// The next pin: the first point past s at chord `pitch` from point_at(s). On a circle of radius
/// R >= pitch / 2 the chord grows monotonically for arc lengths up to pi R >= pitch pi / 2, so
/// bisection on [s, s + pitch pi / 2] finds it.
double next_pin(const HullPath& path, double s, double pitch) {
  const PlanePoint from = path.point_at(s);
  double lo = s, hi = s + 0.5 * std::numbers::pi * pitch;
  for (int i = 0; i < 80 && hi - lo > 1e-14 * (1.0 + std::abs(hi)); ++i) {
    const double mid = 0.5 * (lo + hi);
    (distance(path.point_at(mid), from) < pitch ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

/// Where pin N lands: s_N - L. Negative: the chain is too short for this path.
double closure_mismatch(const TrackTemplate& track, double travel) {
  const HullPath path = HullPath::of_circles(track_circles(track, travel));
  double s = 0.0;
  for (std::uint32_t k = 0; k < track.shoes.count; ++k) s = next_pin(path, s, track.shoes.pitch);
  return s - path.length();
}

/// The shoe counts whose chain closes somewhere within the travel: n fits iff pin n reaches the
/// start with the idler pulled in (s_n >= L_min) and does not pass it with the idler pushed out.
std::string fitting_counts(const TrackTemplate& track) {
  const TensionerTemplate& t = track.idler.tensioner;
  const HullPath inner = HullPath::of_circles(track_circles(track, t.min_travel));
  const HullPath outer = HullPath::of_circles(track_circles(track, t.max_travel));
  const std::vector<double> s_in = chain_positions(inner, track.shoes.pitch, inner.length());
  const std::vector<double> s_out = chain_positions(outer, track.shoes.pitch, outer.length() + track.shoes.pitch);
  std::size_t lowest = s_in.size();  // the first n with s_n >= L_min
  for (std::size_t n = 1; n <= s_in.size(); ++n)
    if (s_in[n - 1] >= inner.length()) {
      lowest = n;
      break;
    }
  std::size_t highest = 0;  // the last n with s_n <= L_max
  for (std::size_t n = 1; n <= s_out.size(); ++n)
    if (s_out[n - 1] <= outer.length()) highest = n;
  const std::string range = "the pin path round the wheels is " + number_to_string(std::round(inner.length() * 1e4) / 1e4) +
                            " m with the idler at its inner travel limit and " +
                            number_to_string(std::round(outer.length() * 1e4) / 1e4) + " m at its outer limit";
  if (lowest > highest) return range + ", and no whole number of shoes of this pitch closes the loop within that travel";
  return range + ", which takes " +
         (lowest == highest ? std::to_string(lowest) : std::to_string(lowest) + " to " + std::to_string(highest)) +
         " shoes";
}

}  // namespace

double pin_circle_radius(const ShoeTemplate& shoes, const WheelTemplate& wheel) {
  const double r = wheel.radius;
  double d = 0.0;
  for (const LocalSphere& s : shoes.spheres) {
    if (wheel.gap > 0 && std::abs(s.offset.y) < 0.5 * wheel.gap) continue;  // runs in the gap
    if (std::abs(s.offset.x) >= r + s.radius) continue;
    d = std::max(d, s.offset.z + std::sqrt((r + s.radius) * (r + s.radius) - s.offset.x * s.offset.x));
  }
  return d > 0 ? std::hypot(d, 0.5 * shoes.pitch) : r + shoes.pin_offset;
}

std::vector<WrapCircle> track_circles(const TrackTemplate& track, double idler_travel) {
  const ShoeTemplate& shoes = track.shoes;
  std::vector<WrapCircle> circles;
  circles.push_back({track.sprocket.position, pin_circle_radius(shoes, track.sprocket.wheel)});
  const PlanePoint idler{track.idler.position.x + idler_travel * track.idler.tensioner.direction.x,
                         track.idler.position.z + idler_travel * track.idler.tensioner.direction.z};
  circles.push_back({idler, pin_circle_radius(shoes, track.idler.wheel)});
  const double road = pin_circle_radius(shoes, track.road_wheels.wheel);
  for (const PlanePoint& p : track.road_wheels.positions) circles.push_back({p, road});
  const double roller = pin_circle_radius(shoes, track.rollers.wheel);
  for (const PlanePoint& p : track.rollers.positions) circles.push_back({p, roller});
  return circles;
}

std::vector<double> chain_positions(const HullPath& path, double pitch, double s_end) {
  std::vector<double> s;
  double current = 0.0;
  while (current <= s_end) {
    current = next_pin(path, current, pitch);
    s.push_back(current);
  }
  return s;
}

TrackWrap wrap_track(const TrackTemplate& track) {
  const TensionerTemplate& tensioner = track.idler.tensioner;
  const double pitch = track.shoes.pitch;
  const std::uint32_t count = track.shoes.count;
  for (const double travel : {tensioner.min_travel, tensioner.max_travel}) {
    const HullPath path = HullPath::of_circles(track_circles(track, travel));
    if (pitch >= 2.0 * path.smallest_radius())
      throw WrapError("pitch " + number_to_string(pitch) + " m is not below the diameter " +
                      number_to_string(2.0 * path.smallest_radius()) +
                      " m of the smallest pin circle round a wheel");
  }

  // A longer travel gives a longer path, so the mismatch s_N - L falls as the idler moves out.
  const double at_min = closure_mismatch(track, tensioner.min_travel);
  const double at_max = closure_mismatch(track, tensioner.max_travel);
  const std::string shoes = std::to_string(count) + " shoes of pitch " + number_to_string(pitch) + " m";
  if (at_min < 0) throw WrapError(shoes + " are too few to wrap the wheels: " + fitting_counts(track));
  if (at_max > 0) throw WrapError(shoes + " are too many for the tensioner to take up: " + fitting_counts(track));

  double lo = tensioner.min_travel, hi = tensioner.max_travel;
  for (int i = 0; i < 100 && hi - lo > 1e-13; ++i) {
    const double mid = 0.5 * (lo + hi);
    (closure_mismatch(track, mid) > 0 ? lo : hi) = mid;
  }

  TrackWrap wrap;
  wrap.idler_travel = 0.5 * (lo + hi);
  wrap.idler_center = {track.idler.position.x + wrap.idler_travel * tensioner.direction.x,
                       track.idler.position.z + wrap.idler_travel * tensioner.direction.z};
  const HullPath path = HullPath::of_circles(track_circles(track, wrap.idler_travel));
  wrap.path_length = path.length();
  double s = 0.0;
  for (std::uint32_t k = 0; k < count; ++k) {
    wrap.pins.push_back(path.point_at(s));
    s = next_pin(path, s, pitch);
  }
  wrap.closure_gap = std::abs(distance(wrap.pins.back(), wrap.pins.front()) - pitch);
  return wrap;
}

}  // namespace trackcosim::vehicle
