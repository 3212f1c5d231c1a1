#pragma once
// Bodies as flat records for messages and checkpoints: one fixed-size BodyRecord per body and
// its spheres as SphereRecords, both trivially copyable, so a ghost refresh or a migration
// sends two plain arrays per neighbour. Only sphere shapes travel: planes and boxes belong to
// the fixed and kinematic bodies that every rank holds from the config.

#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "gpu/dynamics/body_set.h"
#include "terrain_node/checkpoint/body_set_copy.h"

namespace trackcosim::terrain {

struct BodyRecord {
  gpu::GlobalId gid;
  real position[3], orientation[4], velocity[3], angular_velocity[3];
  real mass, inertia[3], friction;
  real force[3], torque[3];
  std::uint32_t sphere_count;
  std::uint8_t motion;
  std::uint8_t padding[3];
};
static_assert(std::is_trivially_copyable_v<BodyRecord> && sizeof(BodyRecord) == 8 + 24 * sizeof(real) + 8);

struct SphereRecord {
  real offset[3];
  real radius;
};
static_assert(std::is_trivially_copyable_v<SphereRecord> && sizeof(SphereRecord) == 4 * sizeof(real));

/// Records and spheres for a list of bodies, appended in that order.
struct BodyRecords {
  std::vector<BodyRecord> bodies;
  std::vector<SphereRecord> spheres;
  void append(const gpu::BodySet& set, const SphereIndex& index, std::uint32_t body);
  /// Copies record `body` of `from`, whose spheres start at `first_sphere` there.
  void append(const BodyRecords& from, std::size_t body, std::size_t first_sphere);
  void clear() {
    bodies.clear();
    spheres.clear();
  }
};

/// Sorts the records (and their spheres with them) by gid.
void sort_by_gid(BodyRecords& records);

/// The record of `gid` in records sorted by gid (sort_by_gid), or null.
const BodyRecord* find_record(const BodyRecords& sorted, gpu::GlobalId gid);

/// The record's state as the system reports a body's.
gpu::BodyState state_of(const BodyRecord& r);

/// Sets the record's motion and brings it to rest (velocities zero).
void set_at_rest(BodyRecord& r, gpu::Motion motion);

/// A body set in increasing gid order from some bodies of `held` (by index) and records; gids
/// must be distinct. Throws std::logic_error naming a gid that appears twice.
gpu::BodySet merge_bodies(const gpu::BodySet& held, const std::vector<std::uint32_t>& held_bodies,
                          const std::vector<const BodyRecords*>& received);

}  // namespace trackcosim::terrain
