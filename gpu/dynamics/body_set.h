#pragma once
// The bodies of a rigid-body scene as the caller describes them (host side, structure of arrays):
// state, mass properties, motion kind, friction and the collision shapes attached to each body.
// RigidBodySystem copies a BodySet into device memory once and steps it there.
//
// Conventions (DESIGN.md): SI units, world frame Z up, quaternions (w, x, y, z) rotating body
// vectors into the world, angular velocities in the world frame. Every body has a global id;
// a BodySet lists them in strictly increasing gid order, which is also the canonical order that
// makes every reduction deterministic.

#include <cstdint>
#include <vector>

#include "gpu/collision/shape_scene.h"
#include "math/real.h"
#include "math/vec3.h"

namespace trackcosim::gpu {

/// How a body moves. Fixed and kinematic bodies have infinite mass for the solver; a kinematic
/// body moves with the velocity its owner prescribes (future track-shoe proxies), a fixed one
/// never moves (container walls). An axial body is dynamic, but only along and about the world
/// z axis: its velocity stays (0, 0, vz) and its angular velocity (0, 0, wz) (an anchor pressed
/// and screwed into the ground, NDIA 2012 sec. 5.3; the projection is in detail/device_bodies.h).
/// The values are stored in checkpoints (docs/checkpoint-format.md): never renumber them.
enum class Motion : std::uint8_t { Dynamic = 0, Fixed = 1, Kinematic = 2, Axial = 3 };

/// Does the solver move the body (Dynamic or Axial)? Everything that asks "is it dynamic" for
/// ownership, migration, energy or mass means this.
constexpr bool is_dynamic(Motion m) { return m == Motion::Dynamic || m == Motion::Axial; }

struct BodyDesc {
  GlobalId gid = 0;
  Vec3 position{0, 0, 0};
  Quat orientation{1, 0, 0, 0};
  Vec3 velocity{0, 0, 0};
  Vec3 angular_velocity{0, 0, 0};  ///< world frame
  real mass = 1;                   ///< > 0 for dynamic (and axial) bodies, ignored otherwise
  Vec3 inertia{1, 1, 1};           ///< principal moments in the body frame, > 0 (dynamic, axial)
  Motion motion = Motion::Dynamic;
  real friction = 0.5;             ///< Coulomb coefficient; a contact uses the smaller of its two
  Vec3 applied_force{0, 0, 0};     ///< world frame, constant until changed (gravity is separate)
  Vec3 applied_torque{0, 0, 0};    ///< world frame, about the centre of mass
};

/// One body's kinematic state, as read back from the system.
struct BodyState {
  GlobalId gid;
  Vec3 position;
  Quat orientation;
  Vec3 velocity;
  Vec3 angular_velocity;
};

struct BodySet {
  // Bodies, one entry per body, in increasing gid order.
  std::vector<GlobalId> gid;
  std::vector<real> px, py, pz;
  std::vector<real> qw, qx, qy, qz;
  std::vector<real> vx, vy, vz;
  std::vector<real> wx, wy, wz;
  std::vector<real> mass;
  std::vector<real> ix, iy, iz;
  std::vector<Motion> motion;
  std::vector<real> friction;
  std::vector<real> fx, fy, fz;
  std::vector<real> tx, ty, tz;

  // Spheres attached to bodies: a compound body is several spheres on one body. Offsets are in
  // the body frame. Shape indices count per body in the order shapes are added (all kinds).
  std::vector<std::uint32_t> sphere_body;
  std::vector<real> sphere_ox, sphere_oy, sphere_oz, sphere_radius;
  std::vector<ShapeIndex> sphere_shape;

  // Planes and boxes attached to bodies, geometry in the body frame (gid = the body's gid).
  // They are static geometry for collision detection: they move with a kinematic body, but
  // contacts are only found against spheres.
  std::vector<std::uint32_t> plane_body, box_body;
  std::vector<PlaneShape> planes;  ///< point/normal in the body frame
  std::vector<BoxShape> boxes;     ///< center/orientation in the body frame

  std::size_t size() const { return gid.size(); }

  /// Appends a body; returns its index. Throws std::invalid_argument when gid is not larger
  /// than the last one.
  std::uint32_t add_body(const BodyDesc& body);
  void add_sphere(std::uint32_t body, Vec3 offset, real radius);
  void add_plane(std::uint32_t body, Vec3 point, Vec3 normal);
  void add_box(std::uint32_t body, Vec3 center, Vec3 half_extents, Quat orientation = {1, 0, 0, 0});

  BodyState state(std::size_t i) const;

 private:
  ShapeIndex next_shape_index(std::uint32_t body);
  std::vector<ShapeIndex> shape_count_;
};

/// Principal moments of a solid sphere: 2/5 m r^2 about every axis.
inline Vec3 solid_sphere_inertia(real mass, real radius) {
  const real i = real(0.4) * mass * radius * radius;
  return {i, i, i};
}

/// Principal moments of a solid box of half extents (a, b, c).
inline Vec3 solid_box_inertia(real mass, Vec3 half) {
  const real k = mass / 3;
  return {k * (half.y * half.y + half.z * half.z), k * (half.x * half.x + half.z * half.z),
          k * (half.x * half.x + half.y * half.y)};
}

}  // namespace trackcosim::gpu
