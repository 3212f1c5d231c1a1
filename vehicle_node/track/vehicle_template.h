#pragma once
// The tracked-vehicle template: what a vehicle config file describes, after validation. Plain
// values, SI units. Wheel positions are in the chassis frame (X forward, Z up, origin at the
// chassis centre of mass) and lie in the track's own plane, so they are 2-D points (x, z); each
// track assembly sits at y = +offset (left) or y = -offset (right). The JSON keys, defaults and
// units are listed in docs/vehicle.md; vehicle_template_loader.cpp is the reference for that page.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "math/vec3.h"
#include "geometry/mesh_file.h"
#include "vehicle_node/mbd/mbd_types.h"

namespace trackcosim::vehicle {

/// A point in a track's plane: x forward, z up, chassis frame (m).
struct PlanePoint {
  double x = 0.0;
  double z = 0.0;
};

struct ChassisTemplate {
  double mass = 0.0;                 ///< kg
  Vec3 inertia{0.0, 0.0, 0.0};       ///< principal moments about the centre of mass, kg m^2
  std::optional<Vec3> position;      ///< initial centre of mass (world); default: resting on the ground
  double drop_height = 0.02;         ///< gap between the lowest shoe and the ground at t = 0 (m)
  /// [length, width, height] of the box drawn for the chassis (m; outputs only, the chassis has
  /// no contact geometry); default: the uniform box of the mass and inertia (output/drawn_bodies.h)
  std::optional<Vec3> size;
};

/// Geometry and inertia shared by a family of wheels. A double wheel (gap > 0) is two
/// cylinders of `width` each, `gap` apart, so a shoe's guide horn can run between them.
struct WheelTemplate {
  double radius = 0.0;               ///< m
  double width = 0.0;                ///< of one cylinder, m
  double gap = 0.0;                  ///< between the two cylinders of a double wheel, m (0: single)
  double mass = 0.0;                 ///< kg
  Vec3 inertia{0.0, 0.0, 0.0};       ///< principal moments, y is the axle, kg m^2
};

/// The sprocket drives the chain by friction on its cylinders and, with teeth > 0, by tooth
/// spheres on its rim that push on a pin sphere at each shoe's front pin (teeth sit between
/// pins on the pin circle, whose radius radius + pin_offset must then be pitch / 2 sin(pi/teeth)).
struct SprocketTemplate {
  WheelTemplate wheel;
  PlanePoint position;
  std::uint32_t teeth = 0;           ///< 0: friction drive only
  double max_torque = 0.0;           ///< motor torque limit in speed mode (N m); 0: unlimited
};

/// The idler rides on a carrier that slides along `direction` (a prismatic joint to the
/// chassis) and is pushed outward by the tensioner spring:
///   F = preload - stiffness * travel - damping * d(travel)/dt   (F > 0 pushes outward).
struct TensionerTemplate {
  PlanePoint direction{-1.0, 0.0};   ///< unit, in the track plane; default: from sprocket to idler
  double stiffness = 0.0;            ///< N/m
  double damping = 0.0;              ///< N s/m
  double preload = 0.0;              ///< N at travel 0 (the idler's nominal position)
  double min_travel = 0.0;           ///< m, relative to the nominal position (<= 0)
  double max_travel = 0.0;           ///< m (>= 0)
  double carrier_mass = 0.0;         ///< kg of the sliding carrier
};

struct IdlerTemplate {
  WheelTemplate wheel;
  PlanePoint position;               ///< nominal centre (travel 0)
  TensionerTemplate tensioner;
};

/// Optional vertical suspension of the road wheels: a carrier on a vertical prismatic joint
/// held by a spring-damper; the wheel turns on the carrier.
struct SuspensionTemplate {
  double stiffness = 0.0;            ///< N/m
  double damping = 0.0;              ///< N s/m
  std::optional<double> preload;     ///< N; default: vehicle weight / number of road wheels
  double carrier_mass = 0.0;         ///< kg
};

struct RoadWheelsTemplate {
  WheelTemplate wheel;
  std::vector<PlanePoint> positions;
  std::optional<SuspensionTemplate> suspension;
};

struct RollersTemplate {
  WheelTemplate wheel;
  std::vector<PlanePoint> positions;
};

/// One track shoe. Its frame: origin half-way between its two pins, x along the chain (pins at
/// x = -pitch/2 and +pitch/2), z pointing into the track loop (towards the wheels), y lateral.
/// The pin axis is parallel to y.
struct ShoeTemplate {
  /// The box that the pad's spheres fill, centred on the shoe frame's origin (for drawing).
  struct Pad {
    double length = 0.0, width = 0.0, thickness = 0.0;  ///< along x, y, z, m
  };
  std::uint32_t count = 0;
  double pitch = 0.0;                ///< pin-to-pin distance, m
  double mass = 0.0;                 ///< kg
  Vec3 inertia{0.0, 0.0, 0.0};       ///< principal moments, kg m^2
  std::optional<Pad> pad;            ///< none: the shoe is spheres only, or a mesh pad
  /// A pad given as a mesh (shoe_mesh_pad.h): its surface in the shoe frame, for drawing; its
  /// spheres are in `spheres` and `terrain_spheres`. Null for a box pad or no pad.
  std::shared_ptr<const geometry::TriangleMesh> pad_mesh;
  std::vector<LocalSphere> spheres;  ///< contact geometry in the shoe frame
  /// The geometry a granular terrain gets (co-simulation): the pad covered more densely, so that
  /// grains neither pass between its spheres nor its spheres between grains; = spheres unless
  /// the pad gives terrain_spheres_along/across.
  std::vector<LocalSphere> terrain_spheres;
  /// Distance from the pin axis to the face that rolls on the wheels (m): the wheels' circles
  /// are grown by this much to give the path of the pins.
  double pin_offset = 0.0;
};

struct TrackTemplate {
  double offset = 0.0;               ///< |y| of each track's mid-plane from the chassis centre, m
  SprocketTemplate sprocket;
  IdlerTemplate idler;
  RoadWheelsTemplate road_wheels;
  RollersTemplate rollers;
  ShoeTemplate shoes;
};

struct ContactTemplate {
  double wheel_friction = 0.8;       ///< shoe - wheel / sprocket / idler / roller
  double ground_friction = 0.9;      ///< shoe - rigid ground
};

struct VehicleTemplate {
  std::string name;
  std::string source;                ///< the file it came from, for messages
  ChassisTemplate chassis;
  TrackTemplate track;
  ContactTemplate contact;
  Vec3 gravity{0.0, 0.0, -9.81};

  /// Total mass of the vehicle (chassis, both tracks, wheels, carriers), kg.
  double total_mass() const;
  std::size_t road_wheel_count() const { return 2 * track.road_wheels.positions.size(); }
};

}  // namespace trackcosim::vehicle
