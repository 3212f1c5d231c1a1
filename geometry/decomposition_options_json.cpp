#include "geometry/decomposition_options_json.h"

#include <cstdint>
#include <string>

#include "io/number_text.h"

namespace trackcosim::geometry {
namespace {

double read_ratio(const io::JsonField& object, std::string_view key, double fallback) {
  const auto field = object.optional_member(key);
  if (!field) return fallback;
  const double f = field->number();
  if (!(f >= 0 && f < 1)) field->fail("must be in [0, 1), got " + io::number_to_string(f));
  return f;
}

}  // namespace

DecompositionOptions read_decomposition_options(const io::JsonField& object) {
  DecompositionOptions o;
  o.f = read_ratio(object, "f", o.f);
  o.refined_f = read_ratio(object, "refined_f", o.refined_f);
  if (const auto levels = object.optional_member("refine_levels")) {
    const std::uint64_t n = levels->unsigned_integer();
    if (n > static_cast<std::uint64_t>(kMaxRefineLevels))
      levels->fail("must be 0 to " + std::to_string(kMaxRefineLevels) + ", got " + std::to_string(n));
    o.refine_levels = static_cast<int>(n);
  }
  if (const auto angle = object.optional_member("sharp_angle")) {
    o.sharp_angle_deg = angle->number();
    if (!(o.sharp_angle_deg > 0 && o.sharp_angle_deg < 180))
      angle->fail("must be in (0, 180) degrees, got " + io::number_to_string(o.sharp_angle_deg));
  }
  if (const auto protrusion = object.optional_member("max_protrusion")) {
    o.max_protrusion = protrusion->non_negative_number();
    if (o.max_protrusion >= 1)
      protrusion->fail("must be in [0, 1) (a fraction of the part's size; 0: the fixed refinement alone), got " +
                       io::number_to_string(o.max_protrusion));
  }
  if (const auto merge = object.optional_member("merge")) {
    o.merge_tolerance = merge->non_negative_number();
    if (o.merge_tolerance > 1)
      merge->fail("must be in [0, 1] (a fraction of the part's size), got " + io::number_to_string(o.merge_tolerance));
  }
  return o;
}

}  // namespace trackcosim::geometry
