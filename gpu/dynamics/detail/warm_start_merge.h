#pragma once
// Adding impulses a neighbour rank forwarded to the warm-start store, in device memory: only
// the added entries cross to the device, not the store (a distributed step forwards a few
// contacts near each face). Only .cu files include this header.

#include <vector>

#include "gpu/dynamics/detail/contact_preparation.h"
#include "gpu/dynamics/solver_exchange.h"

namespace trackcosim::gpu::detail {

/// Merges `entries` into the store (sorted by key, as it stays): an entry replaces the stored
/// one with the same key, and of equal entries the last given wins. `rolling`: the store keeps
/// rolling impulses (SolverSettings::rolling_friction > 0); otherwise it holds none.
void merge_warm_start(WarmStartStore& store, const std::vector<WarmStartImpulse>& entries, bool rolling);

}  // namespace trackcosim::gpu::detail
