#pragma once
// Where one terrain rank sits in the split and whom it talks to: what the stages of a step
// need besides the bodies. Rebuilt by DistributedTerrain for each step, since a rebalance or a
// moving patch changes the cuts, and with them the neighbours and their exchange.

#include "comm/neighbour_exchange.h"
#include "domain/decomposition.h"
#include "math/real.h"

namespace trackcosim::terrain {

struct RankPlace {
  const domain::Decomposition& decomposition;
  int rank;
  int ranks;
  comm::NeighbourExchange& exchange;  ///< with this rank's neighbours, in its neighbours() order
  real ghost_width;

  bool split() const { return ranks > 1; }
};

}  // namespace trackcosim::terrain
