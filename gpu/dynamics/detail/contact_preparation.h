#pragma once
// From the collision list to solver rows: body indices, arms, eta, stabilisation, friction and
// the warm start by contact key; and, after the solve, the impulses kept for the next step.
// Only .cu files include this header.

#include <thrust/device_vector.h>

#include "gpu/collision/detail/device_contacts.h"
#include "gpu/collision/detail/contact_ordering.h"
#include "gpu/dynamics/contact_compliance.h"
#include "gpu/dynamics/detail/ccp_solver.h"

namespace trackcosim::gpu::detail {

/// Last step's contact keys (canonical order) and world-frame impulses on B.
struct WarmStartStore {
  thrust::device_vector<ContactKey> keys;
  DeviceVec3 impulse;
  DeviceVec3 rolling;  ///< rho_u u + rho_w w per key; empty without rolling resistance
};

/// This step's contact keys and their match in the warm-start store, kept between steps so
/// that a step does not reallocate.
struct ContactUpload {
  thrust::device_vector<ContactKey> keys;
  thrust::device_vector<std::uint32_t> match;
};

/// The compliant bodies (contact_compliance.h), sorted by gid; usually a few shoe proxies.
struct DeviceCompliance {
  thrust::device_vector<GlobalId> gid;
  thrust::device_vector<real> stiffness, damping;
  bool empty() const { return gid.empty(); }
};

/// Fills ws.contacts and ws.contact_impulse.gamma (warm start, projected on the cones) from
/// `contacts`, which must only hold contacts with at least one dynamic body.
void prepare_contacts(const DeviceContacts& contacts, DeviceBodies& bodies, real step_size,
                      const SolverSettings& settings, const DeviceCompliance& compliant, const WarmStartStore& warm,
                      ContactUpload& upload, SolverWorkspace& ws);

/// The rolling rows of the contacts ws.contacts holds (after prepare_contacts): R*, eta and the
/// warm start; empty when settings.rolling_friction is 0.
void prepare_rolling(DeviceBodies& bodies, const SolverSettings& settings, const WarmStartStore& warm,
                     const ContactUpload& upload, SolverWorkspace& ws);

/// eta of the bilateral rows, 1 / (J M^-1 J^T), and zero starting impulses.
void prepare_rows(DeviceBodies& bodies, const SolverSettings& settings, SolverWorkspace& ws);

/// Keeps this step's keys and impulses (as world vectors, so a rotated normal reuses them).
void store_warm_start(const ContactUpload& upload, SolverWorkspace& ws, WarmStartStore& warm);

}  // namespace trackcosim::gpu::detail
