#include "vehicle_node/track/hull_path.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace trackcosim::vehicle {
namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

/// Angle in [0, 2 pi); a turn a hair below 2 pi is round-off of "no turn" and reads as 0.
double turn_angle(double a) {
  a = std::fmod(a, kTwoPi);
  if (a < 0) a += kTwoPi;
  return a > kTwoPi - 1e-9 ? 0.0 : a;
}

/// The outer tangent from circle a to circle b that keeps both circles on its left.
/// With n = (cos alpha, sin alpha) the outward normal at both tangent points, n . (cb - ca) =
/// ra - rb, and the direction of travel is n turned by +90 degrees.
struct Tangent {
  double alpha;       // angle of the outward normal
  double direction;   // angle of travel, alpha + pi/2
  double distance;    // centre distance, for tie-breaks
};

Tangent outer_tangent(const WrapCircle& a, const WrapCircle& b) {
  const double dx = b.center.x - a.center.x, dz = b.center.z - a.center.z;
  const double d = std::hypot(dx, dz);
  const double alpha = std::atan2(dz, dx) - std::acos(std::clamp((a.radius - b.radius) / d, -1.0, 1.0));
  return {alpha, alpha + 0.5 * std::numbers::pi, d};
}

PlanePoint on_circle(const WrapCircle& c, double angle) {
  return {c.center.x + c.radius * std::cos(angle), c.center.z + c.radius * std::sin(angle)};
}

std::vector<WrapCircle> drop_contained(const std::vector<WrapCircle>& circles) {
  std::vector<WrapCircle> kept;
  for (std::size_t i = 0; i < circles.size(); ++i) {
    bool inside = false;
    for (std::size_t j = 0; j < circles.size() && !inside; ++j) {
      if (i == j) continue;
      const double d = std::hypot(circles[i].center.x - circles[j].center.x, circles[i].center.z - circles[j].center.z);
      // Equal circles at one place: keep the first only.
      inside = d + circles[i].radius <= circles[j].radius + 1e-12 && (circles[i].radius < circles[j].radius || j < i);
    }
    if (!inside) kept.push_back(circles[i]);
  }
  return kept;
}

}  // namespace

HullPath HullPath::of_circles(const std::vector<WrapCircle>& input) {
  const std::vector<WrapCircle> circles = drop_contained(input);
  if (circles.size() < 2) throw WrapError("the track needs at least two distinct wheels to wrap round");

  // Gift wrapping over circles: from the lowest circle, heading forward (+x), repeatedly take
  // the tangent that turns least to the left; the circle it reaches is the next on the hull.
  std::size_t start = 0;
  for (std::size_t i = 1; i < circles.size(); ++i) {
    const double low_i = circles[i].center.z - circles[i].radius, low_s = circles[start].center.z - circles[start].radius;
    if (low_i < low_s - 1e-12 || (std::abs(low_i - low_s) <= 1e-12 && circles[i].center.x < circles[start].center.x))
      start = i;
  }
  struct Span { std::size_t from, to; Tangent tangent; };
  std::vector<Span> spans;
  std::size_t current = start;
  double heading = 0.0;
  for (std::size_t guard = 0; guard <= circles.size() + 1; ++guard) {
    std::size_t best = current;
    Tangent best_tangent{};
    double best_turn = kTwoPi;
    for (std::size_t j = 0; j < circles.size(); ++j) {
      if (j == current) continue;
      const Tangent t = outer_tangent(circles[current], circles[j]);
      const double turn = turn_angle(t.direction - heading);
      if (turn < best_turn - 1e-12 || (std::abs(turn - best_turn) <= 1e-12 && t.distance > best_tangent.distance)) {
        best = j;
        best_turn = turn;
        best_tangent = t;
      }
    }
    if (!spans.empty() && spans.front().from == current && spans.front().to == best) break;
    spans.push_back({current, best, best_tangent});
    heading = best_tangent.direction;
    current = best;
  }

  HullPath path;
  for (std::size_t k = 0; k < spans.size(); ++k) {
    const Span& span = spans[k];
    const Span& next = spans[(k + 1) % spans.size()];
    Piece line;
    line.start = on_circle(circles[span.from], span.tangent.alpha);
    line.end = on_circle(circles[span.to], span.tangent.alpha);
    line.length = std::hypot(line.end.x - line.start.x, line.end.z - line.start.z);
    Piece arc;
    arc.is_arc = true;
    arc.start = circles[span.to].center;
    arc.radius = circles[span.to].radius;
    arc.start_angle = span.tangent.alpha;
    arc.length = arc.radius * turn_angle(next.tangent.alpha - span.tangent.alpha);
    for (Piece* p : {&line, &arc}) {
      p->s0 = path.total_length_;
      path.total_length_ += p->length;
      path.pieces_.push_back(*p);
    }
  }
  return path;
}

PlanePoint HullPath::point_at(double s) const {
  s = std::fmod(s, total_length_);
  if (s < 0) s += total_length_;
  // Few pieces (two per wheel on the hull): a linear scan is clearer than a search.
  const Piece* piece = &pieces_.back();
  for (const Piece& p : pieces_)
    if (s < p.s0 + p.length) {
      piece = &p;
      break;
    }
  const double u = std::clamp(s - piece->s0, 0.0, piece->length);
  if (!piece->is_arc) {
    const double f = piece->length > 0 ? u / piece->length : 0.0;
    return {piece->start.x + f * (piece->end.x - piece->start.x), piece->start.z + f * (piece->end.z - piece->start.z)};
  }
  const double angle = piece->start_angle + u / piece->radius;
  return {piece->start.x + piece->radius * std::cos(angle), piece->start.z + piece->radius * std::sin(angle)};
}

std::size_t HullPath::arc_count() const {
  return static_cast<std::size_t>(std::count_if(pieces_.begin(), pieces_.end(), [](const Piece& p) { return p.is_arc; }));
}

double HullPath::smallest_radius() const {
  double r = INFINITY;
  for (const Piece& p : pieces_)
    if (p.is_arc) r = std::min(r, p.radius);
  return r;
}

}  // namespace trackcosim::vehicle
