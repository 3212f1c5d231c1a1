#pragma once
// Stages 4 to 6 of the terrain step as they concern the split (terrain_step_stages.h): each
// contact is solved by the owner of its midpoint (solve_partition_plan.h), only the contacts near
// this rank's faces or at a ghost leave the device to be planned; the solve exchanges slots and
// velocities with the neighbours every iteration (comm/mpi_solver_exchange.h); afterwards the
// impulses of contacts near a neighbour's box go to it, so that a contact that changes rank keeps
// its warm start. On one rank the plan is empty: every contact is solved here, nothing crosses.

#include <cstdint>
#include <vector>

#include "gpu/collision/contact_list.h"
#include "gpu/dynamics/rigid_body_system.h"
#include "terrain_node/distributed/exchange_stats.h"
#include "terrain_node/distributed/ghost_exchange.h"
#include "terrain_node/distributed/held_bodies.h"
#include "terrain_node/distributed/rank_place.h"
#include "terrain_node/distributed/solve_partition_plan.h"

namespace trackcosim::terrain {

class ContactOwnership {
 public:
  /// Stage 4, after collision detection: plans the contacts near the faces and drops from the
  /// system those another rank solves that act on no body owned here.
  void plan(gpu::RigidBodySystem& system, const HeldBodies& held, const GhostExchange& ghosts, const RankPlace& place);
  /// Stage 5: the CCP solve, over the ranks when the plan splits it; records in held.solved
  /// which contacts were solved here, and the solver's messages in `stats`.
  void solve(gpu::RigidBodySystem& system, HeldBodies& held, const RankPlace& place, ExchangeStats& stats);
  /// The end of stage 6, after the shoe loads have read the warm-start store (this merges the
  /// neighbours' impulses into it): hands neighbours the impulses of the contacts solved here
  /// near their boxes.
  void hand_over_warm_start(gpu::RigidBodySystem& system, const HeldBodies& held, const RankPlace& place);

 private:
  bool split_ = false;        ///< this step's solve is shared with neighbours
  gpu::ContactList near_;     ///< the planned contacts: all that can be near a face
  PartitionPlan plan_;        ///< near_'s split; kept_index is their place among the kept contacts
};

}  // namespace trackcosim::terrain
