#pragma once
// A piecewise-linear function of time given by points (t_i, v_i), t strictly increasing:
// linear between points, held at the first value before the first point and at the last value
// after the last one. Drives sprocket speeds and torques.

#include <utility>
#include <vector>

#include "io/json_fields.h"

namespace trackcosim::vehicle {

class TimeProfile {
 public:
  TimeProfile() = default;
  /// Throws std::invalid_argument if empty or the times do not increase strictly.
  explicit TimeProfile(std::vector<std::pair<double, double>> points);
  static TimeProfile constant(double value) { return TimeProfile({{0.0, value}}); }

  double operator()(double t) const;
  const std::vector<std::pair<double, double>>& points() const { return points_; }

 private:
  std::vector<std::pair<double, double>> points_;
};

/// [[t0, v0], [t1, v1], ...] with t >= 0 strictly increasing, or a single number (constant).
TimeProfile read_time_profile(const io::JsonField& field);

}  // namespace trackcosim::vehicle
