#pragma once
// Helpers shared by DistributedTerrain's source files and its stages (distributed_terrain.cpp: the
// step; distributed_terrain_rebalance.cpp: moving the cuts; held_bodies.h: what a rank holds).
// Not part of the interface.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "gpu/collision/contact_list.h"
#include "gpu/dynamics/body_set.h"
#include "gpu/dynamics/solver_exchange.h"
#include "terrain_node/checkpoint/terrain_checkpoint.h"
#include "terrain_node/distributed/body_records.h"
#include "terrain_node/distributed/distributed_terrain.h"
#include "terrain_node/distributed/held_bodies.h"
#include "terrain_node/distributed/solve_partition_plan.h"

namespace trackcosim::terrain {

/// What DistributedTerrain::hand_over distributes: this rank's bodies as records, and the
/// indices of held bodies that every rank keeps.
struct DistributedTerrain::Handover {
  BodyRecords active;                   ///< Dynamic bodies this rank holds now, to go to their owners
  BodyRecords stored;                   ///< this rank's stored particles, to go to their owners
  std::vector<std::uint32_t> everywhere;  ///< indices into HeldBodies::set
  BodyRecords fixed;                    ///< newly fixed particles, the same on every rank
};

inline Vec3 position(const gpu::BodySet& s, std::size_t i) { return {s.px[i], s.py[i], s.pz[i]}; }
inline real axis_value(Vec3 p, int a) { return a == 0 ? p.x : a == 1 ? p.y : p.z; }
/// Moved by the solver (Dynamic or Axial): owned by one rank, migrates, a ghost elsewhere.
inline bool dynamic(const gpu::BodySet& s, std::size_t i) { return gpu::is_dynamic(s.motion[i]); }
/// Collective: cuts along one axis from every rank's owned positions, over their global range
/// (at least `width` long): at the particle-count quantiles when `balance`, else uniform. When
/// no rank owns a body: `when_empty` if given (a moving patch keeps its cuts), else cuts of [0, width].
std::vector<real> global_cuts(const comm::RankGroup& group, const std::vector<Vec3>& owned, int axis, int parts,
                              real width, bool balance, const std::vector<real>& when_empty = {});

/// Collective: sends each record to the rank owning its position under `next`; returns the
/// records this rank receives (its own included), in rank order.
BodyRecords send_to_owners(const comm::RankGroup& group, const BodyRecords& records,
                           const domain::Decomposition& next);
/// The same for the listed bodies of `set`.
BodyRecords send_to_owners(const comm::RankGroup& group, const gpu::BodySet& set,
                           const std::vector<std::uint32_t>& bodies, const domain::Decomposition& next);

/// A solver's warm-start impulse as a checkpoint entry and back: every field, in one place, so
/// that a field added to both (as the rolling impulse was) cannot be dropped by one conversion.
inline WarmStartEntry checkpoint_entry(const gpu::WarmStartImpulse& e) {
  return {e.gid_a, e.gid_b, e.shape_a, e.shape_b, e.impulse_on_b, e.rolling_on_b};
}
inline gpu::WarmStartImpulse solver_impulse(const WarmStartEntry& e) {
  return {e.gid_a, e.gid_b, e.shape_a, e.shape_b, e.impulse_on_b, e.rolling_on_b};
}

inline std::uint32_t index_of(const std::vector<gpu::GlobalId>& sorted, gpu::GlobalId gid) {
  return static_cast<std::uint32_t>(std::lower_bound(sorted.begin(), sorted.end(), gid) - sorted.begin());
}

}  // namespace trackcosim::terrain
