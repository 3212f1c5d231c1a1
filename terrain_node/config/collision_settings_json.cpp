#include "terrain_node/config/collision_settings_json.h"

#include <limits>
#include <string>

namespace trackcosim::terrain {

gpu::CollisionSettings read_collision_settings(const io::JsonField& f) {
  f.expect_object({"envelope", "bin_size", "bin_size_factor", "max_contacts_per_body_pair"});
  gpu::CollisionSettings s;
  if (const auto v = f.optional_member("envelope")) s.envelope = v->non_negative_number();
  if (const auto v = f.optional_member("bin_size")) s.bin_size = v->non_negative_number();
  if (const auto v = f.optional_member("bin_size_factor")) s.bin_size_factor = v->positive_number();
  if (const auto v = f.optional_member("max_contacts_per_body_pair")) {
    const std::uint64_t k = v->unsigned_integer();
    if (k > std::numeric_limits<std::uint32_t>::max()) v->fail("must be <= 4294967295, got " + std::to_string(k));
    s.max_contacts_per_body_pair = static_cast<std::uint32_t>(k);
  }
  return s;
}

nlohmann::ordered_json collision_settings_json(const gpu::CollisionSettings& s) {
  return {{"envelope", s.envelope},
          {"bin_size", s.bin_size},
          {"bin_size_factor", s.bin_size_factor},
          {"max_contacts_per_body_pair", s.max_contacts_per_body_pair}};
}

}  // namespace trackcosim::terrain
