#pragma once
// The closed path a taut track follows round its wheels: the convex hull of the wheel circles
// (each grown by the shoes' pin offset), made of straight spans tangent to two circles and arcs
// on the circles, as in figure 5.8 of the Heyn thesis. Points are in the track plane (x, z);
// the path runs counter-clockwise in that plane (forward along the bottom span, up the front,
// back along the top), so the inside of the loop is on the left of the direction of travel.

#include <stdexcept>
#include <vector>

#include "vehicle_node/track/vehicle_template.h"

namespace trackcosim::vehicle {

struct WrapCircle {
  PlanePoint center;
  double radius = 0.0;
};

/// The wheels cannot be wrapped (fewer than two distinct circles, shoes that do not fit, ...).
/// Message written for the person who edits the config.
class WrapError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class HullPath {
 public:
  /// Circles wholly inside another one are not part of the hull and are dropped. Throws
  /// WrapError when fewer than two circles remain. The path starts (s = 0) where the first
  /// span leaves the lowest circle, heading forward.
  static HullPath of_circles(const std::vector<WrapCircle>& circles);

  double length() const { return total_length_; }
  /// The point at arc length s (taken modulo length()).
  PlanePoint point_at(double s) const;
  /// Number of circles the path touches (arcs, some possibly of zero sweep).
  std::size_t arc_count() const;
  /// Smallest radius of the circles on the hull.
  double smallest_radius() const;

 private:
  struct Piece {
    bool is_arc = false;
    PlanePoint start;            // line: start point; arc: centre
    PlanePoint end;              // line: end point
    double radius = 0.0;         // arc
    double start_angle = 0.0;    // arc: angle of the start point seen from the centre
    double length = 0.0;
    double s0 = 0.0;             // arc length at the start of the piece
  };
  std::vector<Piece> pieces_;
  double total_length_ = 0.0;
};

}  // namespace trackcosim::vehicle
