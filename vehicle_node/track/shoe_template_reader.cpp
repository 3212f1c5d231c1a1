#include "vehicle_node/track/shoe_template_reader.h"

#include "io/number_text.h"
#include "vehicle_node/track/shoe_mesh_pad.h"

namespace trackcosim::vehicle {
namespace {

using io::JsonField;

/// Evenly spaced centres on [-half_span, half_span]; one sphere sits in the middle.
double spread(std::uint32_t i, std::uint32_t n, double half_span) {
  return n == 1 ? 0.0 : -half_span + 2.0 * half_span * i / (n - 1);
}

std::uint32_t read_count(const JsonField& object, std::string_view key, std::uint32_t fallback) {
  const auto field = object.optional_member(key);
  if (!field) return fallback;
  const std::uint64_t n = field->unsigned_integer();
  if (n < 1 || n > 64) field->fail("must be between 1 and 64, got " + std::to_string(n));
  return static_cast<std::uint32_t>(n);
}

/// A box pad: a grid of spheres filling a thin box centred on the pin plane. Returns the pin
/// offset it implies (half its thickness).
double read_box_pad(const JsonField& pad, ShoeTemplate& s) {
  pad.expect_object({"length", "width", "thickness", "spheres_along", "spheres_across", "terrain_spheres_along",
                     "terrain_spheres_across"});
  const double length = pad.member("length").positive_number();
  const double width = pad.member("width").positive_number();
  const JsonField thickness_field = pad.member("thickness");
  const double thickness = thickness_field.positive_number();
  if (thickness > length || thickness > width)
    thickness_field.fail("must not exceed the pad's length and width (the spheres' diameter is the thickness)");
  const std::uint32_t along = read_count(pad, "spheres_along", 2), across = read_count(pad, "spheres_across", 3);
  const auto sp = pad_spheres(length, width, thickness, along, across);
  s.spheres.insert(s.spheres.end(), sp.begin(), sp.end());
  const auto tp = pad_spheres(length, width, thickness, read_count(pad, "terrain_spheres_along", along),
                              read_count(pad, "terrain_spheres_across", across));
  s.terrain_spheres.insert(s.terrain_spheres.end(), tp.begin(), tp.end());
  s.pad = ShoeTemplate::Pad{length, width, thickness};
  return 0.5 * thickness;
}

}  // namespace

std::vector<LocalSphere> pad_spheres(double length, double width, double thickness, std::uint32_t along,
                                     std::uint32_t across) {
  const double r = 0.5 * thickness;
  std::vector<LocalSphere> out;
  for (std::uint32_t i = 0; i < along; ++i)
    for (std::uint32_t j = 0; j < across; ++j)
      out.push_back({{spread(i, along, 0.5 * length - r), spread(j, across, 0.5 * width - r), 0.0}, r});
  return out;
}

ShoeTemplate read_shoe_template(const JsonField& shoes, const std::filesystem::path& config_folder) {
  shoes.expect_object({"count", "pitch", "mass", "inertia", "pad", "spheres", "pin_offset"});
  ShoeTemplate s;
  const JsonField count = shoes.member("count");
  const std::uint64_t n = count.unsigned_integer();
  if (n < 4 || n > 100000) count.fail("must be between 4 and 100000, got " + std::to_string(n));
  s.count = static_cast<std::uint32_t>(n);
  s.pitch = shoes.member("pitch").positive_number();

  std::optional<double> pad_offset;
  std::optional<MeshPad> mesh_pad;
  if (const auto pad = shoes.optional_member("pad")) {
    if (pad->json().is_object() && pad->json().contains("mesh")) {
      mesh_pad = read_mesh_pad(*pad, config_folder);
      s.spheres = mesh_pad->spheres;
      s.terrain_spheres = mesh_pad->spheres;
      s.pad_mesh = mesh_pad->mesh;
      pad_offset = mesh_pad->top;
    } else {
      pad_offset = read_box_pad(*pad, s);
    }
  }
  if (const auto list = shoes.optional_member("spheres")) {
    for (const JsonField& item : list->elements()) {
      item.expect_object({"offset", "radius"});
      s.spheres.push_back({item.member("offset").vec3(), item.member("radius").positive_number()});
      s.terrain_spheres.push_back(s.spheres.back());
    }
  }
  if (s.spheres.empty()) shoes.fail("needs contact geometry: a \"pad\", a list of \"spheres\", or both");

  // A mesh pad with a density gives the mass and inertia; else the template's values stand.
  if (mesh_pad && mesh_pad->mass) {
    for (const char* key : {"mass", "inertia"})
      if (const auto given = shoes.optional_member(key))
        given->fail("must not be given with pad.density: the mesh gives the shoe's mass and inertia (leave out "
                    "the density to give them here)");
    s.mass = *mesh_pad->mass;
    s.inertia = *mesh_pad->inertia;
  } else {
    s.mass = shoes.member("mass").positive_number();
    const JsonField inertia = shoes.member("inertia");
    s.inertia = inertia.vec3();
    if (!(s.inertia.x > 0 && s.inertia.y > 0 && s.inertia.z > 0)) inertia.fail("must all be > 0");
  }

  if (const auto offset = shoes.optional_member("pin_offset")) {
    s.pin_offset = offset->non_negative_number();
  } else if (pad_offset && *pad_offset >= 0) {
    s.pin_offset = *pad_offset;
  } else if (pad_offset) {
    shoes.member("pad").member("mesh").fail("the mesh lies below the pin axis (its highest point is at z = " +
                                            io::number_to_string(*pad_offset) +
                                            " m in the shoe frame): give \"pin_offset\"");
  } else {
    shoes.fail("needs \"pin_offset\" (distance from the pin axis to the face that rolls on the wheels) when "
               "there is no \"pad\"");
  }
  return s;
}

}  // namespace trackcosim::vehicle
