#pragma once
// How a distributed driver splits one CCP solve over ranks without the solver meeting MPI.
//
// Every rank holds its owned bodies and, as ghosts, copies of the neighbours' bodies near its
// box. After collision detection the driver tells the solver (SolvePartition) which contacts
// this rank solves (each contact is solved by exactly one rank, the owner of its midpoint) and
// which contacts it keeps only because they act on an owned body and are solved elsewhere. Then
// every solver iteration does, on every rank:
//
//   sweep the contacts solved here           -> reduction slots (D_i gamma_i per body side)
//   exchange_slots: send the slots that act on a neighbour's bodies, receive the slots that
//                   neighbours computed for ours
//   sum the slots of each owned body in contact-key order -> v(gamma) of owned bodies
//   exchange_velocities: send the new velocities of owned bodies that neighbours hold as
//                   ghosts, receive those of our ghosts
//
// Every owned body then sums the same slots, in the same (global contact-key) order, as a single
// rank would: the distributed iteration is the same iteration, bit for bit. Scalar sums of the
// solver's own math (residual, APGD's line search and restart test) are exact sums
// (math/exact_sum.h) whose bins go through sum(): their element-wise sum over the ranks is exact
// too, so every rank reads one rank's value, and Jacobi and APGD with a fixed iteration count
// give one rank's bits (docs/ccp.md, "Distributed solves").
//
// The header is plain C++; message order is the index order of the lists below, which both
// sides of a neighbour pair derive from the same contact and body lists.

#include <cstdint>
#include <type_traits>
#include <vector>

#include "gpu/collision/contact_list.h"
#include "math/real.h"
#include "math/vec3.h"

namespace trackcosim::gpu {

/// One step's split, indexed by this rank's contacts (after drop_contacts) and bodies.
/// Reduction slot 2 c is contact c's side A, 2 c + 1 its side B. Sparse: the lists name the
/// few contacts and bodies near the rank's faces, so a step moves no array per contact or per
/// body to the device; the solver builds its masks there.
struct SolvePartition {
  std::vector<std::uint32_t> solved_elsewhere;  ///< contacts kept here, solved by a neighbour; increasing
  std::vector<std::uint32_t> slots_out, slots_in;            ///< in message order
  /// Body indices, in message order: velocities_out the owned bodies neighbours hold as ghosts,
  /// velocities_in every ghost (its velocity, and its contact count, come from its owner).
  std::vector<std::uint32_t> velocities_out, velocities_in;
};

/// The driver's messaging, called by the solver. Messages hold 6 reals per slot (linear,
/// angular impulse) or per body (v, w), in the order of the SolvePartition lists, in the
/// solver's staging buffers (page-locked on a GPU); `in` has room for in_count reals. (Plain
/// vectors and pointers: this header is also compiled as CUDA C++17.)
class SolverExchange {
 public:
  virtual ~SolverExchange() = default;
  virtual void exchange_slots(const real* out, std::size_t out_count, real* in, std::size_t in_count) = 0;
  virtual void exchange_velocities(const real* out, std::size_t out_count, real* in, std::size_t in_count) = 0;
  /// Once, before the iterations: the contact count (the Jacobi split) of each body of
  /// velocities_out, one per body in its order; `in` receives the ghosts' (velocities_in), their
  /// owners seeing every contact on them.
  virtual void exchange_counts(const std::vector<std::uint32_t>& out, std::vector<std::uint32_t>& in) = 0;
  /// Element-wise sum of values[0 .. count) over all ranks, in place; every rank gets the same.
  virtual void sum(real* values, std::size_t count) = 0;
  virtual real min(real value) = 0;
};

/// A contact's impulse kept for the next step's warm start: its key and the world-frame impulse
/// body B received [N s]. Drivers move these between ranks as contacts change owner.
struct WarmStartImpulse {
  GlobalId gid_a, gid_b;
  ShapeIndex shape_a, shape_b;
  Vec3 impulse_on_b;
  /// Rolling resistance (SolverSettings::rolling_friction): rho_u u + rho_w w, the rolling
  /// impulse in force units (docs/ccp.md); zero without rolling resistance.
  Vec3 rolling_on_b{0, 0, 0};
};
static_assert(sizeof(WarmStartImpulse) == 72 && std::is_trivially_copyable_v<WarmStartImpulse>);

}  // namespace trackcosim::gpu
