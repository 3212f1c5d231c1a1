#include "vehicle_node/track/vehicle_template_loader.h"

#include <cmath>
#include <filesystem>
#include <numbers>

#include "io/number_text.h"
#include "vehicle_node/track/shoe_template_reader.h"
#include "vehicle_node/track/track_wrapping.h"

namespace trackcosim::vehicle {
namespace {

using io::JsonField;
using io::number_to_string;

/// [x, z] in the track plane.
PlanePoint read_plane_point(const JsonField& field) {
  field.expect_array_of_numbers(2);
  const std::vector<JsonField> e = field.elements();
  return {e[0].number(), e[1].number()};
}

Vec3 read_positive_vec3(const JsonField& field) {
  const Vec3 v = field.vec3();
  if (!(v.x > 0 && v.y > 0 && v.z > 0))
    field.fail("must all be > 0, got [" + number_to_string(v.x) + ", " + number_to_string(v.y) + ", " +
               number_to_string(v.z) + "]");
  return v;
}

double optional_non_negative(const JsonField& object, std::string_view key, double fallback) {
  const auto field = object.optional_member(key);
  return field ? field->non_negative_number() : fallback;
}

/// The wheel keys every wheel family shares; `extra` are the family's own keys.
WheelTemplate read_wheel(const JsonField& object, std::initializer_list<std::string_view> allowed) {
  object.expect_object(allowed);
  WheelTemplate w;
  w.radius = object.member("radius").positive_number();
  w.width = object.member("width").positive_number();
  w.gap = optional_non_negative(object, "gap", 0.0);
  w.mass = object.member("mass").positive_number();
  w.inertia = read_positive_vec3(object.member("inertia"));
  return w;
}

std::vector<PlanePoint> read_positions(const JsonField& object, bool required) {
  const auto field = required ? std::optional<JsonField>(object.member("positions")) : object.optional_member("positions");
  std::vector<PlanePoint> out;
  if (!field) return out;
  for (const JsonField& e : field->elements()) out.push_back(read_plane_point(e));
  if (required && out.empty()) field->fail("needs at least one wheel position [x, z]");
  return out;
}

ChassisTemplate read_chassis(const JsonField& object) {
  object.expect_object({"mass", "inertia", "position", "drop_height", "size"});
  ChassisTemplate c;
  c.mass = object.member("mass").positive_number();
  c.inertia = read_positive_vec3(object.member("inertia"));
  if (const auto p = object.optional_member("position")) c.position = p->vec3();
  c.drop_height = optional_non_negative(object, "drop_height", c.drop_height);
  if (const auto size = object.optional_member("size")) c.size = read_positive_vec3(*size);
  return c;
}

SprocketTemplate read_sprocket(const JsonField& object) {
  SprocketTemplate s;
  s.wheel = read_wheel(object, {"position", "radius", "width", "gap", "mass", "inertia", "teeth", "max_torque"});
  s.position = read_plane_point(object.member("position"));
  if (const auto teeth = object.optional_member("teeth")) {
    const std::uint64_t n = teeth->unsigned_integer();
    if (n != 0 && (n < 3 || n > 200)) teeth->fail("must be 0 (friction drive) or between 3 and 200, got " + std::to_string(n));
    s.teeth = static_cast<std::uint32_t>(n);
  }
  s.max_torque = optional_non_negative(object, "max_torque", 0.0);
  return s;
}

TensionerTemplate read_tensioner(const JsonField& object, PlanePoint default_direction, double idler_mass) {
  object.expect_object({"direction", "stiffness", "damping", "preload", "travel", "carrier_mass"});
  TensionerTemplate t;
  t.direction = default_direction;
  if (const auto d = object.optional_member("direction")) {
    const PlanePoint p = read_plane_point(*d);
    const double norm = std::hypot(p.x, p.z);
    if (!(norm > 0)) d->fail("must be a non-zero direction [x, z]");
    t.direction = {p.x / norm, p.z / norm};
  }
  t.stiffness = object.member("stiffness").non_negative_number();
  t.damping = object.member("damping").non_negative_number();
  t.preload = object.member("preload").non_negative_number();
  const JsonField travel = object.member("travel");
  const PlanePoint range = read_plane_point(travel);
  if (!(range.x <= 0 && range.z >= 0 && range.z > range.x))
    travel.fail("must be [min, max] with min <= 0 <= max and min < max (m from the nominal idler position), got [" +
                number_to_string(range.x) + ", " + number_to_string(range.z) + "]");
  t.min_travel = range.x;
  t.max_travel = range.z;
  const auto carrier = object.optional_member("carrier_mass");
  t.carrier_mass = carrier ? carrier->positive_number() : idler_mass;
  return t;
}

IdlerTemplate read_idler(const JsonField& object, PlanePoint sprocket_position) {
  IdlerTemplate i;
  i.wheel = read_wheel(object, {"position", "radius", "width", "gap", "mass", "inertia", "tensioner"});
  i.position = read_plane_point(object.member("position"));
  PlanePoint outward{i.position.x - sprocket_position.x, i.position.z - sprocket_position.z};
  const double norm = std::hypot(outward.x, outward.z);
  if (!(norm > 0)) object.member("position").fail("must differ from the sprocket position");
  outward = {outward.x / norm, outward.z / norm};
  i.tensioner = read_tensioner(object.member("tensioner"), outward, i.wheel.mass);
  return i;
}

RoadWheelsTemplate read_road_wheels(const JsonField& object) {
  RoadWheelsTemplate r;
  r.wheel = read_wheel(object, {"positions", "radius", "width", "gap", "mass", "inertia", "suspension"});
  r.positions = read_positions(object, /*required=*/true);
  if (const auto s = object.optional_member("suspension")) {
    s->expect_object({"stiffness", "damping", "preload", "carrier_mass"});
    SuspensionTemplate susp;
    susp.stiffness = s->member("stiffness").positive_number();
    susp.damping = s->member("damping").non_negative_number();
    if (const auto p = s->optional_member("preload")) susp.preload = p->non_negative_number();
    const auto carrier = s->optional_member("carrier_mass");
    susp.carrier_mass = carrier ? carrier->positive_number() : r.wheel.mass;
    r.suspension = susp;
  }
  return r;
}

RollersTemplate read_rollers(const JsonField& object) {
  RollersTemplate r;
  r.wheel = read_wheel(object, {"positions", "radius", "width", "gap", "mass", "inertia"});
  r.positions = read_positions(object, /*required=*/false);
  return r;
}

/// Teeth sit between pins on the pin circle: N teeth of a chain of pitch p need a pin circle of
/// radius p / (2 sin(pi / N)). Off by more than 1% the chain would ride up the teeth.
void check_teeth_fit_pitch(const JsonField& sprocket, const TrackTemplate& t) {
  if (t.sprocket.teeth == 0) return;
  const double needed = t.shoes.pitch / (2.0 * std::sin(std::numbers::pi / t.sprocket.teeth));
  const double have = pin_circle_radius(t.shoes, t.sprocket.wheel);
  if (std::abs(have - needed) > 0.01 * needed)
    sprocket.member("teeth").fail(std::to_string(t.sprocket.teeth) + " teeth with shoe pitch " +
                                  number_to_string(t.shoes.pitch) + " m need a pin circle of radius " +
                                  number_to_string(std::round(needed * 1e5) / 1e5) + " m, but the shoes' pins run on a circle of " +
                                  number_to_string(std::round(have * 1e5) / 1e5) + " m round this sprocket (change its radius by " +
                                  number_to_string(std::round((needed - have) * 1e5) / 1e5) + " m)");
}

TrackTemplate read_track(const JsonField& object, const std::filesystem::path& config_folder) {
  object.expect_object({"offset", "sprocket", "idler", "road_wheels", "rollers", "shoes"});
  TrackTemplate t;
  t.offset = object.member("offset").positive_number();
  t.sprocket = read_sprocket(object.member("sprocket"));
  t.idler = read_idler(object.member("idler"), t.sprocket.position);
  t.road_wheels = read_road_wheels(object.member("road_wheels"));
  if (const auto rollers = object.optional_member("rollers")) t.rollers = read_rollers(*rollers);
  t.shoes = read_shoe_template(object.member("shoes"), config_folder);
  check_teeth_fit_pitch(object.member("sprocket"), t);
  return t;
}

ContactTemplate read_contact(const JsonField& object) {
  object.expect_object({"wheel_friction", "ground_friction"});
  ContactTemplate c;
  c.wheel_friction = optional_non_negative(object, "wheel_friction", c.wheel_friction);
  c.ground_friction = optional_non_negative(object, "ground_friction", c.ground_friction);
  return c;
}

}  // namespace

double VehicleTemplate::total_mass() const {
  const TrackTemplate& t = track;
  double one_track = t.sprocket.wheel.mass + t.idler.wheel.mass + t.idler.tensioner.carrier_mass +
                     t.shoes.count * t.shoes.mass + t.rollers.positions.size() * t.rollers.wheel.mass;
  double road_wheel = t.road_wheels.wheel.mass;
  if (t.road_wheels.suspension) road_wheel += t.road_wheels.suspension->carrier_mass;
  one_track += t.road_wheels.positions.size() * road_wheel;
  return chassis.mass + 2 * one_track;
}

VehicleTemplate read_vehicle_template(const JsonField& root, const std::string& source_name) {
  VehicleTemplate v;
  v.source = source_name;
  v.name = root.member("name").string();
  if (v.name.empty()) root.member("name").fail("must not be empty");
  v.chassis = read_chassis(root.member("chassis"));
  const JsonField track = root.member("track");
  // Files the config names (a shoe pad's mesh) are relative to the config's own folder.
  v.track = read_track(track, std::filesystem::path(source_name).parent_path());
  if (const auto c = root.optional_member("contact")) v.contact = read_contact(*c);
  if (const auto g = root.optional_member("gravity")) v.gravity = g->vec3();

  // The wrap is part of validation: shoes that cannot go round the wheels are a config error,
  // reported at the shoe count, which is what the user will change.
  try {
    (void)wrap_track(v.track);
  } catch (const WrapError& e) {
    const JsonField shoes = track.member("shoes");
    shoes.member("count").fail(e.what());
  }
  return v;
}

}  // namespace trackcosim::vehicle
