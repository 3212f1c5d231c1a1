#pragma once
// Stage 1 of the terrain step (terrain_step_stages.h): a body whose centre is in this rank's
// box is owned here (one that crossed a cut is owned by the rank it entered, which already
// holds it as a ghost); every owned body a neighbour needs (within the ghost width of its box)
// goes to it with its full state and shapes; the received ones are this step's ghosts. Only the
// bodies near the faces are read from the device, and a change of membership is made there
// (RigidBodySystem::update_bodies). On one rank it only checks the displacement.

#include <cstdint>
#include <vector>

#include "gpu/dynamics/rigid_body_system.h"
#include "terrain_node/distributed/exchange_stats.h"
#include "terrain_node/distributed/held_bodies.h"
#include "terrain_node/distributed/rank_place.h"

namespace trackcosim::terrain {

class GhostExchange {
 public:
  /// Throws std::runtime_error, naming the body, when a dynamic body moved more than
  /// `max_displacement` in the last step (a ghost layer that thin would miss it); then, on
  /// several ranks, classifies, migrates and refreshes the ghosts, counting ghosts and
  /// migrations into `stats`.
  void run(gpu::RigidBodySystem& system, HeldBodies& held, const RankPlace& place, real max_displacement,
           ExchangeStats& stats);

  /// The ghosts' gids, increasing.
  const std::vector<gpu::GlobalId>& ghost_gids() const { return ghost_gids_; }
  /// Per neighbour: the local indices of the owned bodies it holds as ghosts, increasing.
  const std::vector<std::vector<std::uint32_t>>& sends() const { return sends_; }

 private:
  void classify_and_refresh(gpu::RigidBodySystem& system, HeldBodies& held, const RankPlace& place,
                            ExchangeStats& stats);

  std::vector<gpu::GlobalId> ghost_gids_;
  std::vector<std::vector<std::uint32_t>> sends_;
};

}  // namespace trackcosim::terrain
