#include "vehicle_node/ground/ground_settings.h"

#include <numbers>
#include <stdexcept>

namespace trackcosim::vehicle {
namespace {

using io::JsonField;

constexpr double kDegree = std::numbers::pi / 180.0;

void read_bumps(const JsonField& bumps, GroundSettings& g) {
  const std::string type = bumps.member("type").one_of({"random", "sinusoids"});
  if (type == "random") {
    bumps.expect_object({"type", "rms_height", "wavelength", "seed", "components"});
    if (const auto f = bumps.optional_member("rms_height")) g.rms_height = f->non_negative_number();
    if (const auto f = bumps.optional_member("wavelength")) g.wavelength = f->positive_number();
    if (const auto f = bumps.optional_member("seed")) g.seed = f->unsigned_integer();
    if (const auto f = bumps.optional_member("components")) {
      const std::uint64_t n = f->unsigned_integer();
      if (n < 1 || n > 1024) f->fail("must be between 1 and 1024, got " + std::to_string(n));
      g.random_components = static_cast<int>(n);
    }
    return;
  }
  bumps.expect_object({"type", "components"});
  g.random_bumps = false;
  const JsonField list = bumps.member("components");
  for (const JsonField& item : list.elements()) {
    item.expect_object({"amplitude", "wavelength", "direction_deg", "phase_deg"});
    Sinusoid s;
    s.amplitude = item.member("amplitude").non_negative_number();
    s.wavelength = item.member("wavelength").positive_number();
    if (const auto f = item.optional_member("direction_deg")) s.direction = f->number() * kDegree;
    if (const auto f = item.optional_member("phase_deg")) s.phase = f->number() * kDegree;
    g.sinusoids.push_back(s);
  }
  if (g.sinusoids.empty()) list.fail("needs at least one sinusoid");
}

}  // namespace

GroundSettings read_ground_settings(const JsonField& section) {
  section.expect_object({"profile", "height", "bumps"});
  GroundSettings g;
  if (const auto f = section.optional_member("profile")) g.profile = parse_ground_profile(f->one_of({"flat", "bumpy"}));
  if (const auto f = section.optional_member("height")) g.height = f->number();
  if (const auto f = section.optional_member("bumps")) read_bumps(*f, g);
  return g;
}

GroundProfile parse_ground_profile(const std::string& name) {
  if (name == "flat") return GroundProfile::kFlat;
  if (name == "bumpy") return GroundProfile::kBumpy;
  throw std::invalid_argument("unknown ground profile \"" + name + "\" (expected flat or bumpy)");
}

const char* ground_profile_name(GroundProfile p) { return p == GroundProfile::kFlat ? "flat" : "bumpy"; }

std::shared_ptr<const Ground> make_ground(const GroundSettings& g) {
  if (g.profile == GroundProfile::kFlat) return std::make_shared<FlatGround>(g.height);
  if (g.random_bumps)
    return std::make_shared<BumpyGround>(BumpyGround::random(g.height, g.rms_height, g.wavelength, g.seed, g.random_components));
  return std::make_shared<BumpyGround>(g.height, g.sinusoids);
}

}  // namespace trackcosim::vehicle
