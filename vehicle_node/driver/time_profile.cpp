#include "vehicle_node/driver/time_profile.h"

#include <algorithm>
#include <stdexcept>

#include "io/number_text.h"

namespace trackcosim::vehicle {

TimeProfile::TimeProfile(std::vector<std::pair<double, double>> points) : points_(std::move(points)) {
  if (points_.empty()) throw std::invalid_argument("a time profile needs at least one point");
  for (std::size_t i = 1; i < points_.size(); ++i)
    if (!(points_[i].first > points_[i - 1].first))
      throw std::invalid_argument("time profile: times must increase strictly");
}

double TimeProfile::operator()(double t) const {
  if (points_.empty()) return 0.0;
  if (t <= points_.front().first) return points_.front().second;
  if (t >= points_.back().first) return points_.back().second;
  const auto after = std::upper_bound(points_.begin(), points_.end(), t,
                                      [](double time, const auto& p) { return time < p.first; });
  const auto before = after - 1;
  const double f = (t - before->first) / (after->first - before->first);
  return before->second + f * (after->second - before->second);
}

TimeProfile read_time_profile(const io::JsonField& field) {
  if (field.json().is_number()) return TimeProfile::constant(field.number());
  std::vector<std::pair<double, double>> points;
  for (const io::JsonField& point : field.elements()) {
    point.expect_array_of_numbers(2);
    const std::vector<io::JsonField> tv = point.elements();
    const double t = tv[0].non_negative_number();
    if (!points.empty() && !(t > points.back().first))
      tv[0].fail("times must increase strictly, got " + io::number_to_string(t) + " after " +
                 io::number_to_string(points.back().first));
    points.emplace_back(t, tv[1].number());
  }
  if (points.empty()) field.fail("needs at least one point [t, value]");
  return TimeProfile(std::move(points));
}

}  // namespace trackcosim::vehicle
