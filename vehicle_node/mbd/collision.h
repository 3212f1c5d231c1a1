#pragma once
// Internal: contact shapes and contact generation. Shapes are grouped per add_* call (a sphere
// set or one cylinder); a group's bounding sphere is the broad phase, pairs of groups are
// tested all-against-all (a vehicle has a few hundred groups, so O(n^2) bounding-sphere tests
// cost microseconds and keep the order deterministic).

#include <cstdint>
#include <unordered_set>
#include <vector>

#include "vehicle_node/mbd/body_store.h"
#include "vehicle_node/mbd/contact_geometry.h"
#include "vehicle_node/mbd/ground.h"

namespace trackcosim::vehicle::detail {

enum class PrimKind : std::uint8_t { kSphere, kCylinder };

struct Primitive {
  int body;
  PrimKind kind;
  V3 center;            // body frame
  V3 axis;              // cylinders: unit axis, body frame
  double radius;
  double half_width;    // cylinders
};

struct ShapeGroup {
  int body;
  std::uint32_t family;
  int first, count;     // primitives [first, first + count)
  PrimKind kind;
  V3 bound_center;      // body frame
  double bound_radius;
};

struct Contact {
  int body_a, body_b;   // body_b = -1: the ground
  int prim_a, prim_b;   // prim_b = -1: the ground
  ContactPoint geo;     // normal pushes body_a away from body_b
  double mu;
  std::uint64_t key;    // (prim_a, prim_b): stable across steps, for warm starting
};

class CollisionWorld {
 public:
  void add_spheres(int body, const std::vector<V3>& centers, const std::vector<double>& radii,
                   std::uint32_t family);
  void add_cylinder(int body, const V3& center, const V3& axis, double radius, double half_width,
                    std::uint32_t family);
  void set_family_collides(std::uint32_t fa, std::uint32_t fb, bool collides);
  void set_ground_collides(std::uint32_t family, bool collides);
  void exclude_pair(int body_a, int body_b);  // bodies joined by a joint

  /// Contacts of this configuration, in a deterministic order (group pairs in index order).
  void collide(const BodyStore& bodies, const Ground* ground, double mu_ground, double mu_bodies,
               double margin, std::vector<Contact>& out);

 private:
  static std::uint64_t pair_key(std::uint32_t a, std::uint32_t b) {
    return a < b ? (std::uint64_t{a} << 32 | b) : (std::uint64_t{b} << 32 | a);
  }
  void collide_groups(const ShapeGroup& ga, const ShapeGroup& gb, double mu, double margin,
                      std::vector<Contact>& out) const;

  std::vector<Primitive> prims_;
  std::vector<ShapeGroup> groups_;
  std::unordered_set<std::uint64_t> family_pairs_;
  std::unordered_set<std::uint32_t> ground_off_;
  std::unordered_set<std::uint64_t> excluded_bodies_;
  // per-step scratch: world centres (and axes) of primitives, world bounding centres
  std::vector<V3> world_center_, world_axis_, group_center_;
};

}  // namespace trackcosim::vehicle::detail
