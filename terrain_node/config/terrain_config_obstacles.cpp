// The `obstacles` list of a terrain config (docs/terrain-config.md): fixed box-made bodies.

#include <cmath>
#include <string>

#include "io/number_text.h"
#include "terrain_node/config/terrain_config_read.h"

namespace trackcosim::terrain::terrain_config_detail {
namespace {

void require_positive_extent(const io::JsonField& field, Vec3 v) {
  if (!(v.x > 0 && v.y > 0 && v.z > 0))
    field.fail("must all be > 0, got [" + io::number_to_string(v.x) + ", " + io::number_to_string(v.y) + ", " +
               io::number_to_string(v.z) + "]");
}

Obstacle read_obstacle(const io::JsonField& f, const Material& material) {
  if (!f.json().is_object()) f.expect_object({});
  const std::string kind = f.member("kind").one_of({"box", "ramp", "speed_bump"});
  Obstacle o;
  if (kind == "box") {
    f.expect_object({"kind", "center", "size", "orientation", "friction"});
    o.kind = Obstacle::Kind::Box;
    o.center = f.member("center").vec3();
    const io::JsonField size = f.member("size");
    o.size = size.vec3();
    require_positive_extent(size, o.size);
    if (const auto v = f.optional_member("orientation")) o.orientation = v->unit_quaternion();
  } else if (kind == "ramp") {
    f.expect_object({"kind", "min", "max", "rise", "friction"});
    o.kind = Obstacle::Kind::Ramp;
    o.min = f.member("min").vec3();
    const io::JsonField max_field = f.member("max");
    o.max = max_field.vec3();
    require_positive_extent(max_field, o.max - o.min);
    if (const auto v = f.optional_member("rise")) o.rises_along_x = v->one_of({"+x", "-x"}) == "+x";
  } else {
    f.expect_object({"kind", "center", "length", "width", "height", "segments", "friction"});
    o.kind = Obstacle::Kind::SpeedBump;
    o.center = f.member("center").vec3();
    o.length = f.member("length").positive_number();
    o.width = f.member("width").positive_number();
    const io::JsonField height = f.member("height");
    o.height = height.positive_number();
    // Taller than half the length, the arc would bulge past its base chord.
    if (o.height > o.length / 2)
      height.fail("must be <= length / 2 = " + io::number_to_string(o.length / 2) + ", got " + io::number_to_string(o.height));
    if (const auto v = f.optional_member("segments")) {
      const std::uint64_t n = v->unsigned_integer();
      if (n < 1 || n > 256) v->fail("must be in [1, 256], got " + std::to_string(n));
      o.segments = int(n);
    }
  }
  o.friction = material.friction;
  if (const auto v = f.optional_member("friction")) o.friction = v->non_negative_number();
  return o;
}

}  // namespace

std::vector<Obstacle> read_obstacles(const io::JsonField& list, const Material& material) {
  std::vector<Obstacle> out;
  for (const io::JsonField& item : list.elements()) out.push_back(read_obstacle(item, material));
  return out;
}

}  // namespace trackcosim::terrain::terrain_config_detail
