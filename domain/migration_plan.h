#pragma once
// Per step, which owned bodies leave this rank's box (and for which rank) and which owned bodies
// each neighbour needs as ghosts.

#include <cstdint>
#include <span>
#include <vector>

#include "domain/decomposition.h"

namespace trackcosim::domain {

struct Migration {
  std::uint32_t index;
  int destination;
};
/// The bodies (positions after the step) that left box(rank), with the rank now owning them.
std::vector<Migration> plan_migration(const Decomposition& d, int rank, std::span<const Vec3> positions);

/// Per neighbour (in `neighbours` order, every rank within `width` of box(rank)) the increasing
/// indices of the owned bodies it needs as ghosts.
struct GhostPlan {
  std::vector<int> neighbours;
  std::vector<std::vector<std::uint32_t>> send;
};
GhostPlan plan_ghosts(const Decomposition& d, int rank, std::span<const Vec3> owned_positions, real width);

}  // namespace trackcosim::domain
