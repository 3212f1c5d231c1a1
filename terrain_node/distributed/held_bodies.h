#pragma once
// What one terrain rank holds between steps: its bodies as the host sees them, who holds each,
// and which of the last step's contacts it solved. The step's stages (ghost_exchange.h,
// contact_ownership.h, shoe_loads.h) and DistributedTerrain's other files read and write it.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "gpu/dynamics/body_set.h"
#include "terrain_node/distributed/body_records.h"
#include "terrain_node/distributed/solve_partition_plan.h"

namespace trackcosim::terrain {

/// The last step's kept contacts (the system's list) and which of them this rank solved: all
/// but a few near its faces, which a neighbour solved.
struct SolvedContacts {
  std::size_t kept = 0;
  std::vector<std::uint32_t> elsewhere;  ///< kept indices a neighbour solved, increasing
  bool here(std::uint32_t i) const { return i < kept && !std::binary_search(elsewhere.begin(), elsewhere.end(), i); }
  std::size_t count() const { return kept - elsewhere.size(); }
};

struct HeldBodies {
  /// Every held body, in the system's order. What a step does not change (gids, motion, shapes,
  /// masses, applied loads) is always as the system has it; poses and velocities only while
  /// !stale: a step does not copy them back (on a GPU that is every body array, every step), a
  /// reader that needs them does (DistributedTerrain::held_bodies).
  gpu::BodySet set;
  bool stale = false;    ///< a step moved the bodies since `set` was copied
  bool stepped = false;  ///< a step ran: the system holds its contact list
  LocalBodies local;     ///< holders of `set`'s bodies
  SolvedContacts solved;  ///< the last step's kept contacts, and which were solved here
  BodyRecords stored;  ///< particles a moving patch took out of the solver, at rest, in gid order
};

}  // namespace trackcosim::terrain
