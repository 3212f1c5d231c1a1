#pragma once
// One step's split of the contact solve over ranks (gpu/dynamics/solver_exchange.h), computed
// from this rank's contacts near its faces and who holds each of its bodies. Pure logic: no MPI.
//
// A contact is solved by the owner of its midpoint (the middle of its two contact points), so
// by exactly one rank. This rank keeps the contacts it solves and those that act on a body it
// owns (their slots arrive from the solving rank); it drops the rest (two ghosts touching,
// solved elsewhere). Messages go per neighbour, in contact-key order and side A before side B
// for slots, in gid order for velocities: both ends of a neighbour pair list the same items
// in the same order because they see the same contacts and the same bodies, bit for bit.

#include <cstdint>
#include <vector>

#include "comm/mpi_solver_exchange.h"
#include "domain/decomposition.h"
#include "gpu/collision/contact_list.h"
#include "gpu/dynamics/solver_exchange.h"

namespace trackcosim::terrain {

/// The point that decides which rank solves a contact: the middle of its two contact points.
inline Vec3 contact_midpoint(const gpu::ContactList& c, std::size_t i) {
  return {(c.ax[i] + c.bx[i]) / 2, (c.ay[i] + c.by[i]) / 2, (c.az[i] + c.bz[i]) / 2};
}

/// Who holds each local body, in the system's body order (increasing gid).
inline constexpr int kOwnedHere = -1;
inline constexpr int kOnEveryRank = -2;  ///< fixed and kinematic bodies, replicated
struct LocalBodies {
  std::vector<gpu::GlobalId> gid;
  std::vector<int> holder;  ///< kOwnedHere, kOnEveryRank, or k: a ghost owned by neighbours[k]
};

/// Marks a contact of the planned rows that this rank drops (PartitionPlan::kept_index).
inline constexpr std::uint32_t kDropped = 0xffffffffu;

struct PartitionPlan {
  std::vector<std::uint32_t> dropped;     ///< detected indices, increasing (for drop_contacts)
  std::vector<std::uint32_t> kept_index;  ///< per planned row: its index among the kept contacts, or kDropped
  gpu::SolvePartition partition;          ///< over the kept contacts
  comm::ExchangeCounts counts;
};

/// Plans the rows `near` of the step's detected contacts, which are at `near_index` (increasing)
/// in the detected list: every contact that is not among them has its midpoint deep inside this
/// rank's box and no ghost at either end (RigidBodySystem::contacts_near_faces), so it is kept
/// and solved here and sends no slot. `neighbours` are ranks; ghost_sends[k] are the local
/// indices of owned bodies neighbours[k] holds as ghosts, increasing. Throws std::logic_error
/// when a contact's midpoint belongs to a rank that is not a neighbour (the ghost layer was too
/// thin).
PartitionPlan plan_partition(const gpu::ContactList& near, const std::vector<std::uint32_t>& near_index,
                             const LocalBodies& bodies, const domain::Decomposition& d, int rank,
                             const std::vector<int>& neighbours,
                             const std::vector<std::vector<std::uint32_t>>& ghost_sends);

}  // namespace trackcosim::terrain
