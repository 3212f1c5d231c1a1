#pragma once
// Stages 2 and 7 of the terrain step (terrain_step_stages.h): the shoe proxies, kinematic bodies
// every rank holds, are moved to the states the vehicle sent (before the step), and the contact
// impulses on the watched bodies are added up after it. A contact with a proxy is solved by
// exactly one rank; each rank adds the impulses of the contacts it solved into exact fixed-point
// sums, so the total over ranks, reduced once per coupling step, is the same bits whatever the
// rank count (comm::ExactSums).

#include <array>
#include <vector>

#include "comm/gather.h"
#include "comm/rank_group.h"
#include "gpu/dynamics/rigid_body_system.h"
#include "terrain_node/distributed/held_bodies.h"

namespace trackcosim::terrain {

class ShoeLoads {
 public:
  /// Stage 2: moves kinematic bodies every rank holds (in the system, in one upload, and in
  /// held.set); throws std::invalid_argument for a gid that is not one, before any moves. Its
  /// time is charged to the next step.
  void move_proxies(gpu::RigidBodySystem& system, HeldBodies& held, const std::vector<gpu::BodyState>& states);
  /// The seconds move_proxies spent since the last call.
  double take_proxy_seconds();

  /// Accumulates, from now on, the impulses on these bodies (DistributedTerrain::watch_loads).
  void watch(std::vector<gpu::GlobalId> gids, bool contact_geometry);
  /// Before the step's collision detection: where each watched body held here is, the point its
  /// angular impulses are taken about.
  void record_start_positions(const gpu::RigidBodySystem& system, const HeldBodies& held);
  /// Stage 7: adds the impulses of the watched bodies' contacts solved here. Reads the
  /// warm-start store, which is aligned with this step's contacts until the neighbours' impulses
  /// are merged into it (ContactOwnership::hand_over_warm_start).
  void accumulate(const gpu::RigidBodySystem& system, const HeldBodies& held);
  /// Collective: the sums since the last call, per watched gid, exact over all ranks; then resets.
  std::vector<std::array<double, 6>> take(const comm::RankGroup& group);
  /// Collective: the sums of G = sum g g^T since the last call, per watched gid; then resets.
  std::vector<std::array<double, 21>> take_contact_geometry(const comm::RankGroup& group);

 private:
  std::vector<gpu::GlobalId> watched_;  ///< sorted
  std::vector<Vec3> start_;             ///< per watched gid: its position at this step's start
  comm::ExactSums loads_;               ///< 6 per watched gid
  comm::ExactSums contact_geometry_;    ///< 21 per watched gid, or none
  double proxy_seconds_ = 0;
};

}  // namespace trackcosim::terrain
