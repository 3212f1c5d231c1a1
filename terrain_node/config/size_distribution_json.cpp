// The radius forms of docs/terrain-config.md ("Size distributions"), read and written back.

#include <algorithm>
#include <string>

#include "io/number_text.h"
#include "terrain_node/config/sphere_lattice_json.h"

namespace trackcosim::terrain {
namespace {

using Json = nlohmann::ordered_json;

void check_order(const io::JsonField& max_field, real min, real max) {
  if (min > max)
    max_field.fail("min must be <= max, got [" + io::number_to_string(min) + ", " + io::number_to_string(max) + "]");
}

SizeDistribution read_normal(const io::JsonField& f) {
  f.expect_object({"distribution", "mean", "std", "min", "max"});
  SizeDistribution d;
  d.kind = SizeDistribution::Kind::Normal;
  d.mean = read_radius(f.member("mean"));
  d.std = f.member("std").positive_number();
  d.min = read_radius(f.member("min"));
  const io::JsonField max_field = f.member("max");
  d.max = read_radius(max_field);
  check_order(max_field, d.min, d.max);
  // A mean outside the clip range leaves only a tail, which is a typo more often than a wish.
  if (d.mean < d.min || d.mean > d.max)
    f.member("mean").fail("must lie in [min, max] = [" + io::number_to_string(d.min) + ", " + io::number_to_string(d.max) +
                          "], got " + io::number_to_string(d.mean));
  return d;
}

SizeDistribution read_sieve(const io::JsonField& f) {
  f.expect_object({"distribution", "fractions"});
  SizeDistribution d;
  d.kind = SizeDistribution::Kind::Sieve;
  const io::JsonField list = f.member("fractions");
  const std::vector<io::JsonField> items = list.elements();
  if (items.empty()) list.fail("a sieve needs at least one size class");
  int mass_entries = 0;
  for (const io::JsonField& item : items) {
    item.expect_object({"radius", "diameter", "mass", "count"});
    const auto radius = item.optional_member("radius"), diameter = item.optional_member("diameter");
    if (radius.has_value() == diameter.has_value()) item.fail("give exactly one of radius and diameter");
    const auto mass = item.optional_member("mass"), count = item.optional_member("count");
    if (mass.has_value() == count.has_value()) item.fail("give exactly one of mass and count (a fraction)");
    SieveClass c;
    c.radius = radius ? read_radius(*radius) : read_radius(*diameter, 2);
    c.fraction = mass ? mass->positive_number() : count->positive_number();
    mass_entries += mass ? 1 : 0;
    d.classes.push_back(c);
  }
  if (mass_entries != 0 && mass_entries != int(items.size()))
    list.fail("mix of mass and count fractions: use one kind for every class");
  d.mass_fractions = mass_entries != 0;
  std::stable_sort(d.classes.begin(), d.classes.end(),
                   [](const SieveClass& a, const SieveClass& b) { return a.radius < b.radius; });
  d.min = d.classes.front().radius;
  d.max = d.classes.back().radius;
  return d;
}

}  // namespace

real read_radius(const io::JsonField& field, real per_radius) {
  const real v = field.positive_number();
  const real lo = kMinRadius * per_radius, hi = kMaxRadius * per_radius;
  if (v < lo || v > hi)
    field.fail("must be in [" + io::number_to_string(lo) + ", " + io::number_to_string(hi) + "] m, got " +
               io::number_to_string(v) + (per_radius == 1 ? "" : " (a radius in [" + io::number_to_string(kMinRadius) +
                                                                   ", " + io::number_to_string(kMaxRadius) + "] m)"));
  return v / per_radius;
}

SizeDistribution read_size_distribution(const io::JsonField& field) {
  const nlohmann::json& j = field.json();
  if (j.is_number()) {
    const real r = read_radius(field);
    return SizeDistribution::uniform(r, r);
  }
  if (j.is_array()) {
    if (j.size() != 2) field.fail("expected a radius, [rmin, rmax] or a distribution object");
    const std::vector<io::JsonField> range = field.elements();
    const SizeDistribution d = SizeDistribution::uniform(read_radius(range[0]), read_radius(range[1]));
    check_order(field, d.min, d.max);
    return d;
  }
  if (!j.is_object()) field.fail("expected a radius, [rmin, rmax] or a distribution object");
  const std::string kind = field.member("distribution").one_of({"uniform", "normal", "sieve"});
  if (kind == "normal") return read_normal(field);
  if (kind == "sieve") return read_sieve(field);
  field.expect_object({"distribution", "min", "max"});
  const io::JsonField max_field = field.member("max");
  const SizeDistribution d = SizeDistribution::uniform(read_radius(field.member("min")), read_radius(max_field));
  check_order(max_field, d.min, d.max);
  return d;
}

nlohmann::ordered_json size_distribution_json(const SizeDistribution& d) {
  switch (d.kind) {
    case SizeDistribution::Kind::Uniform:
      return Json::array({d.min, d.max});
    case SizeDistribution::Kind::Normal:
      return {{"distribution", "normal"}, {"mean", d.mean}, {"std", d.std}, {"min", d.min}, {"max", d.max}};
    case SizeDistribution::Kind::Sieve: {
      Json list = Json::array();
      for (const SieveClass& c : d.classes)
        list.push_back({{"radius", c.radius}, {d.mass_fractions ? "mass" : "count", c.fraction}});
      return {{"distribution", "sieve"}, {"fractions", std::move(list)}};
    }
  }
  return nullptr;
}

}  // namespace trackcosim::terrain
