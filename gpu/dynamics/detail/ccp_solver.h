#pragma once
// The CCP solvers' shared workspace and entry points. Before a solve, contact_preparation.cu
// has filled the blocks and the warm-start impulses in `gamma`; after it, `gamma` holds the
// impulses and the bodies' solver velocities hold v(gamma) = v_free + M^-1 D gamma.
// Only .cu files include this header.

#include <vector>

#include <thrust/device_vector.h>

#include "gpu/dynamics/detail/body_reduction.h"
#include "gpu/dynamics/detail/distributed_solve.h"
#include "gpu/dynamics/solver_progress.h"
#include "gpu/dynamics/step_settings.h"

namespace trackcosim::gpu::detail {

/// Impulse vectors of one constraint block: the iterate, and APGD's new and previous iterates.
struct BlockVectors {
  DeviceVec3 gamma, next, previous;
  void resize(std::size_t n) {
    gamma.resize(n);
    next.resize(n);
    previous.resize(n);
  }
};

struct SolverWorkspace {
  DeviceContactBlock contacts;
  DeviceRowBlock rows;
  DeviceRollingBlock rolling;  ///< empty unless SolverSettings::rolling_friction > 0
  BlockVectors contact_impulse, row_impulse, rolling_impulse;
  DeviceSlots slots;
  SlotLists slot_lists;
  DeviceVec3 v_prev, w_prev, v_y, w_y;  ///< APGD: body velocities at gamma_k and at y
  thrust::device_vector<ChunkSums> partials;
  DistributedSolve distributed;
  SolverProgress* progress = nullptr;  ///< told after every iteration (RigidBodySystem::set_progress)

  ContactBlockView contact_view() { return contacts.view(slots.view(), 0); }
  RowBlockView row_view() { return rows.view(slots.view(), 2 * contacts.size()); }
  /// The rolling rows, bounded by the contact impulses `normal_impulse` (gamma, or APGD's next);
  /// they add into the contacts' slots, so every pass scatters them after the contacts.
  RollingBlockView rolling_view(Vec3View normal_impulse) { return rolling.view(contacts, normal_impulse, slots.view(), 0); }
  std::size_t slot_count() const { return 2 * (contacts.size() + rows.size()); }
  /// The solver rows this rank solves (its share of the residual's RMS divisor): all of them, or
  /// in a distributed solve those of the contacts solved here.
  real rows_here() const {
    return distributed.active() ? distributed.rows_here
                                : static_cast<real>(3 * contacts.size() + rows.size() + 2 * rolling.size());
  }
};

struct SolveResult {
  std::uint32_t iterations = 0;
  std::uint32_t passes = 0;  ///< sweeps over the constraints: iterations plus rejected APGD line-search trials
  real residual = 0;
  std::vector<real> history;  ///< residual after each iteration, when recorded
};

/// Scatters gamma of both blocks and gathers v(gamma) into the bodies.
void apply_impulses(DeviceBodies& bodies, SolverWorkspace& ws);
/// This rank's sum of the squared residual terms of the current impulses (bodies must hold
/// v(gamma)), and R(gamma) from it over all ranks.
ExactSum residual_sum(DeviceBodies& bodies, SolverWorkspace& ws);
real current_residual(DeviceBodies& bodies, SolverWorkspace& ws);

/// omega eta_i of every constraint, divided by the larger constraint count of its two dynamic
/// bodies when settings.jacobi_split_by_contacts (needs ws.slot_lists built).
void prepare_jacobi_steps(DeviceBodies& bodies, SolverWorkspace& ws, const SolverSettings& settings);

SolveResult solve_jacobi(DeviceBodies& bodies, SolverWorkspace& ws, const SolverSettings& settings);
SolveResult solve_apgd(DeviceBodies& bodies, SolverWorkspace& ws, const SolverSettings& settings);

}  // namespace trackcosim::gpu::detail
