#include "vehicle_node/track/tracked_vehicle.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

namespace trackcosim::vehicle {
namespace {

constexpr Vec3 kAxle{0.0, 1.0, 0.0};  // every wheel and pin turns about the lateral axis

/// A shoe's pose in its track plane: frame origin half-way between its pins, x along the
/// chain. A rotation about y by beta maps x to (cos beta, 0, -sin beta), so beta = -atan2(dz, dx);
/// z then points to the left of the chain, into the loop.
struct ShoePlacement {
  PlanePoint center;
  Quat orientation;
};

ShoePlacement place_shoe(PlanePoint rear_pin, PlanePoint front_pin) {
  const double beta = -std::atan2(front_pin.z - rear_pin.z, front_pin.x - rear_pin.x);
  return {{0.5 * (rear_pin.x + front_pin.x), 0.5 * (rear_pin.z + front_pin.z)},
          {std::cos(0.5 * beta), 0.0, std::sin(0.5 * beta), 0.0}};
}

std::vector<LocalSphere> mirrored_for(Side side, std::vector<LocalSphere> spheres) {
  if (side == Side::kRight)
    for (LocalSphere& s : spheres) s.offset.y = -s.offset.y;
  return spheres;
}

/// One cylinder, or two `gap` apart for a double wheel.
void add_wheel_shape(MultibodySystem& system, BodyId body, const WheelTemplate& w) {
  const double half = 0.5 * w.width;
  if (w.gap <= 0) {
    system.add_contact_cylinder(body, {0, 0, 0}, kAxle, w.radius, half, kWheelFamily);
    return;
  }
  for (const double sign : {-1.0, 1.0})
    system.add_contact_cylinder(body, {0, sign * (0.5 * w.gap + half), 0}, kAxle, w.radius, half, kWheelFamily);
}

BodyId add_wheel(MultibodySystem& system, const std::string& name, const WheelTemplate& w, Vec3 at) {
  BodyDesc d;
  d.name = name;
  d.mass = w.mass;
  d.inertia = w.inertia;
  d.position = at;
  const BodyId body = system.add_body(d);
  add_wheel_shape(system, body, w);
  return body;
}

/// Tooth and pin spheres each take 0.22 pitch of radius: together 0.44 p against a centre
/// distance of about p / 2 between a tooth and its neighbouring pins, a little backlash.
constexpr double kToothPinRadius = 0.22;

/// Teeth on the pin circle, half-way between the pins of the initial wrap (in the sprocket
/// frame, which starts aligned with the chassis).
std::vector<LocalSphere> tooth_spheres(const TrackTemplate& t, const TrackWrap& wrap) {
  const PlanePoint c = t.sprocket.position;
  const double r = pin_circle_radius(t.shoes, t.sprocket.wheel);
  const PlanePoint* nearest = &wrap.pins.front();
  for (const PlanePoint& p : wrap.pins)
    if (std::abs(std::hypot(p.x - c.x, p.z - c.z) - r) < std::abs(std::hypot(nearest->x - c.x, nearest->z - c.z) - r))
      nearest = &p;
  const double step = 2.0 * std::numbers::pi / t.sprocket.teeth;
  const double first = std::atan2(nearest->z - c.z, nearest->x - c.x) + 0.5 * step;
  std::vector<LocalSphere> teeth;
  for (std::uint32_t k = 0; k < t.sprocket.teeth; ++k) {
    const double a = first + k * step;
    teeth.push_back({{r * std::cos(a), 0.0, r * std::sin(a)}, kToothPinRadius * t.shoes.pitch});
  }
  return teeth;
}

/// Lowest chassis height that keeps every shoe sphere `drop_height` above the ground.
double resting_height(const VehicleTemplate& v, const TrackWrap& wrap, const Ground& ground, double x0, double y0) {
  double z = -std::numeric_limits<double>::infinity();
  const std::size_t n = wrap.pins.size();
  for (const Side side : kSides) {
    const double y = side == Side::kLeft ? v.track.offset : -v.track.offset;
    for (std::size_t i = 0; i < n; ++i) {
      const ShoePlacement p = place_shoe(wrap.pins[i], wrap.pins[(i + 1) % n]);
      for (const LocalSphere& s : mirrored_for(side, v.track.shoes.spheres)) {
        const Vec3 r = rotate(p.orientation, s.offset);
        const double x = x0 + p.center.x + r.x, yy = y0 + y + r.y;
        z = std::max(z, ground.height(x, yy) - (p.center.z + r.z - s.radius));
      }
    }
  }
  return z + v.chassis.drop_height;
}

}  // namespace

TrackedVehicle::TrackedVehicle(const VehicleTemplate& vehicle, MultibodySystem& system, const Ground& ground)
    : model_(vehicle), wrap_(wrap_track(vehicle.track)) {
  system.set_gravity(vehicle.gravity);
  system.set_friction(vehicle.contact.wheel_friction);
  system.set_family_collides(kShoeFamily, kWheelFamily, true);
  system.set_ground_collides(kWheelFamily, false);
  system.set_family_collides(kToothFamily, kPinFamily, true);
  system.set_ground_collides(kToothFamily, false);
  system.set_ground_collides(kPinFamily, false);

  Vec3 position{0.0, 0.0, 0.0};
  if (vehicle.chassis.position) {
    position = *vehicle.chassis.position;
  } else {
    position.z = resting_height(vehicle, wrap_, ground, 0.0, 0.0);
  }
  BodyDesc chassis;
  chassis.name = "chassis";
  chassis.mass = vehicle.chassis.mass;
  chassis.inertia = vehicle.chassis.inertia;
  chassis.position = position;
  chassis_ = system.add_body(chassis);
  for (const Side side : kSides) build_track(system, side, position);
}

void TrackedVehicle::build_track(MultibodySystem& system, Side side, Vec3 c) {
  const TrackTemplate& t = model_.track;
  TrackAssembly& a = tracks_[static_cast<int>(side)];
  a.lateral_y = side == Side::kLeft ? t.offset : -t.offset;
  const std::string prefix = std::string(side_name(side)) + "_";
  const auto world = [&](PlanePoint p) { return Vec3{c.x + p.x, c.y + a.lateral_y, c.z + p.z}; };

  a.sprocket = add_wheel(system, prefix + "sprocket", t.sprocket.wheel, world(t.sprocket.position));
  a.sprocket_axle = system.add_revolute(chassis_, a.sprocket, world(t.sprocket.position), kAxle);
  a.motor = system.add_rotational_motor(a.sprocket_axle);
  if (t.sprocket.teeth > 0) system.add_contact_spheres(a.sprocket, tooth_spheres(t, wrap_), kToothFamily);

  // Idler: the carrier slides along the tensioner axis; the spring's chassis anchor sits
  // `anchor` behind the carrier so that F = preload - stiffness * travel with travel measured
  // from the nominal idler position (the wrap starts at wrap_.idler_travel).
  const TensionerTemplate& ten = t.idler.tensioner;
  const Vec3 axis{ten.direction.x, 0.0, ten.direction.z};
  const Vec3 idler_at = world(wrap_.idler_center);
  BodyDesc carrier;
  carrier.name = prefix + "idler_carrier";
  carrier.mass = ten.carrier_mass;
  const double cm = ten.carrier_mass;
  carrier.inertia = {0.01 * cm, 0.01 * cm, 0.01 * cm};
  carrier.position = idler_at;
  a.idler_carrier = system.add_body(carrier);
  a.idler_slider = system.add_prismatic(chassis_, a.idler_carrier, idler_at, axis);
  a.idler = add_wheel(system, prefix + "idler", t.idler.wheel, idler_at);
  system.add_revolute(a.idler_carrier, a.idler, idler_at, kAxle);
  const double anchor = 1.0 + std::max(-ten.min_travel, ten.max_travel);
  a.tensioner = system.add_spring_damper(chassis_, a.idler_carrier, idler_at - anchor * axis, idler_at, ten.stiffness,
                                         ten.damping, anchor - wrap_.idler_travel, ten.preload);

  const RoadWheelsTemplate& rw = t.road_wheels;
  for (std::size_t i = 0; i < rw.positions.size(); ++i) {
    const Vec3 at = world(rw.positions[i]);
    const BodyId wheel = add_wheel(system, prefix + "road_wheel_" + std::to_string(i), rw.wheel, at);
    a.road_wheels.push_back(wheel);
    if (!rw.suspension) {
      system.add_revolute(chassis_, wheel, at, kAxle);
      continue;
    }
    // Sprung wheel: the spring's chassis anchor is 1 m above the axle; it pushes the carrier
    // down with preload + stiffness * (upward travel).
    const SuspensionTemplate& s = *rw.suspension;
    BodyDesc wc;
    wc.name = prefix + "road_wheel_carrier_" + std::to_string(i);
    wc.mass = s.carrier_mass;
    wc.inertia = {0.01 * s.carrier_mass, 0.01 * s.carrier_mass, 0.01 * s.carrier_mass};
    wc.position = at;
    const BodyId carrier_id = system.add_body(wc);
    a.road_wheel_carriers.push_back(carrier_id);
    system.add_prismatic(chassis_, carrier_id, at, {0.0, 0.0, 1.0});
    system.add_revolute(carrier_id, wheel, at, kAxle);
    const double preload =
        s.preload ? *s.preload : model_.total_mass() * std::abs(model_.gravity.z) / model_.road_wheel_count();
    a.suspension_springs.push_back(
        system.add_spring_damper(chassis_, carrier_id, at + Vec3{0, 0, 1.0}, at, s.stiffness, s.damping, 1.0, preload));
  }
  for (std::size_t i = 0; i < t.rollers.positions.size(); ++i) {
    const Vec3 at = world(t.rollers.positions[i]);
    a.rollers.push_back(add_wheel(system, prefix + "roller_" + std::to_string(i), t.rollers.wheel, at));
    system.add_revolute(chassis_, a.rollers.back(), at, kAxle);
  }

  const ShoeTemplate& st = t.shoes;
  const std::size_t n = wrap_.pins.size();
  const std::vector<LocalSphere> spheres = mirrored_for(side, st.spheres);
  for (std::size_t i = 0; i < n; ++i) {
    const ShoePlacement p = place_shoe(wrap_.pins[i], wrap_.pins[(i + 1) % n]);
    BodyDesc d;
    d.name = prefix + "shoe_" + std::to_string(i);
    d.mass = st.mass;
    d.inertia = st.inertia;
    d.position = world(p.center);
    d.orientation = p.orientation;
    a.shoes.push_back(system.add_body(d));
    system.add_contact_spheres(a.shoes.back(), spheres, kShoeFamily);
    if (t.sprocket.teeth > 0)
      system.add_contact_spheres(a.shoes.back(), {{{0.5 * st.pitch, 0.0, 0.0}, kToothPinRadius * st.pitch}}, kPinFamily);
  }
  for (std::size_t i = 0; i < n; ++i)
    a.pins.push_back(system.add_revolute(a.shoes[i], a.shoes[(i + 1) % n], world(wrap_.pins[(i + 1) % n]), kAxle));
}

double TrackedVehicle::idler_travel(const MultibodySystem& system, Side s) const {
  return wrap_.idler_travel + system.prismatic_displacement(track(s).idler_slider);
}

double TrackedVehicle::sprocket_pitch_radius() const {
  const double p = model_.track.shoes.pitch;
  const double pin_radius = pin_circle_radius(model_.track.shoes, model_.track.sprocket.wheel);
  return p / (2.0 * std::asin(std::min(1.0, p / (2.0 * pin_radius))));
}

void TrackedVehicle::apply_travel_stops(MultibodySystem& system, double h) const {
  const TensionerTemplate& ten = model_.track.idler.tensioner;
  const Vec3 axis{ten.direction.x, 0.0, ten.direction.z};
  const double mass = ten.carrier_mass + model_.track.idler.wheel.mass;
  // Explicit spring-damper: stable for k < 4 m / h^2 and c h / m < 1; take a fifth and a half.
  const double k = 0.2 * mass / (h * h), c = 0.5 * mass / h;
  const Vec3 chassis_velocity = system.state(chassis_).velocity;
  double on_chassis = 0.0;
  for (const Side s : kSides) {
    const TrackAssembly& a = track(s);
    const double travel = idler_travel(system, s);
    const double rate = dot(system.state(a.idler_carrier).velocity - chassis_velocity, axis);
    double force = 0.0;
    if (travel > ten.max_travel) force = std::min(0.0, -k * (travel - ten.max_travel) - c * rate);
    if (travel < ten.min_travel) force = std::max(0.0, k * (ten.min_travel - travel) - c * rate);
    system.set_external_force(a.idler_carrier, force * axis, {0, 0, 0});
    on_chassis -= force;
  }
  // The chassis takes the reactions (the torque of the small lever arm is neglected: the stops
  // only act in an overload, and they exist so that the idler never leaves its guide).
  system.set_external_force(chassis_, on_chassis * axis, {0, 0, 0});
}

std::vector<LocalSphere> TrackedVehicle::shoe_spheres(Side side) const {
  return mirrored_for(side, model_.track.shoes.spheres);
}

std::vector<LocalSphere> TrackedVehicle::terrain_shoe_spheres(Side side) const {
  const ShoeTemplate& shoes = model_.track.shoes;
  return mirrored_for(side, shoes.terrain_spheres.empty() ? shoes.spheres : shoes.terrain_spheres);
}

}  // namespace trackcosim::vehicle
