#pragma once
// RigidBodySystem's device state, shared by the files that define its members
// (rigid_body_system.cu: the step and the state; system_queries.cu: what a driver asks of the
// last step without copying it whole). Only .cu files include this header.

#include <vector>

#include <thrust/device_vector.h>

#include "gpu/collision/collision_detector.h"
#include "gpu/dynamics/detail/contact_preparation.h"
#include "gpu/dynamics/detail/contact_selection.h"
#include "gpu/dynamics/detail/device_bodies.h"
#include "gpu/dynamics/detail/world_shapes.h"
#include "gpu/dynamics/rigid_body_system.h"
#include "gpu/memory/host_copy.h"

namespace trackcosim::gpu {

struct RigidBodySystem::Impl {
  explicit Impl(const BodySet& set, const StepSettings& settings)
      : description(set), shapes(set), detector(settings.collision), motion(set.motion) {
    find_immovable();
    bodies.upload(set);
  }

  BodySet description;  ///< shapes and mass properties as given; states are read back on demand
  detail::DeviceBodies bodies;
  detail::WorldShapes shapes;
  CollisionDetector detector;
  std::vector<Motion> motion;
  thrust::device_vector<GlobalId> immovable_gids;  ///< fixed and kinematic bodies, sorted (usually a few walls)
  detail::ContactSelection contacts;  ///< this step's contacts the solver acts on (device memory)
  ContactList host_contacts;  ///< their host copy, made only when asked (host_contacts())
  bool host_contacts_current = false;  ///< host_contacts is this step's list
  std::vector<BilateralRow> rows;
  detail::SolverWorkspace ws;
  detail::ContactUpload upload;
  detail::WarmStartStore warm;
  detail::DeviceCompliance compliant;
  thrust::device_vector<detail::KinematicState> kinematic_states;  ///< set_kinematic_states' upload

  /// Collision on the bodies' shapes where they are, then the contacts the solver can act on.
  void find_contacts() {
    detector.detect_on_device(shapes.update(bodies));
    contacts.take(detector.device_contacts());
    contacts.drop_immovable_pairs(immovable_gids, compliant.gid);
    host_contacts_current = false;
  }
  void find_immovable() {
    std::vector<GlobalId> gids;
    for (std::size_t i = 0; i < description.size(); ++i)
      if (!is_dynamic(description.motion[i])) gids.push_back(description.gid[i]);
    detail::upload(immovable_gids, gids);
  }
  void upload_rows();
};

}  // namespace trackcosim::gpu
