#pragma once
// Internal: the state behind MultibodySystem (pimpl), shared by the model-building calls
// (multibody_system.cpp) and the time step (multibody_step.cpp).

#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include "vehicle_node/mbd/body_store.h"
#include "vehicle_node/mbd/collision.h"
#include "vehicle_node/mbd/force_elements.h"
#include "vehicle_node/mbd/joints.h"
#include "vehicle_node/mbd/kkt_solver.h"
#include "vehicle_node/mbd/multibody_system.h"

namespace trackcosim::vehicle {

/// Row states and impulses of one contact (normal, t1, t2), carried to the next step by key.
struct ContactWarmStart {
  detail::RowState state[3];
  double lambda[3];
};

struct MultibodySystem::Impl {
  SolverSettings settings;
  detail::BodyStore bodies;
  std::vector<detail::Joint> joints;
  std::vector<detail::SpringDamper> springs;
  std::vector<detail::Motor> motors;
  std::vector<detail::BodyDrive> body_drives;
  std::map<std::uint32_t, ImplicitLoad> implicit_loads;  ///< by body index
  detail::CollisionWorld collision;
  std::shared_ptr<const Ground> ground;
  double ground_friction = 0.8, friction = 0.5;
  detail::V3 gravity{0.0, 0.0, -9.81};
  double time = 0.0, last_h = 0.0;

  // Results of the last step.
  std::vector<detail::ConstraintRow> rows;
  std::vector<detail::Contact> contacts;
  std::vector<detail::V3> contact_impulse;  // on body_a, world
  int first_contact_row = 0;
  StepReport report;

  // Scratch and caches.
  std::unordered_map<std::uint64_t, ContactWarmStart> warm;
  detail::KktSolver solver;
  std::vector<detail::V3> force, torque;
  std::vector<detail::V6> momentum, new_velocity, correction;
  std::vector<double> violation;
  std::vector<detail::M3> inertia_world;
  std::vector<detail::M6> added_mass;  ///< per moving body: h^2 K + h C of its implicit load

  void step(double h);
  void build_contact_rows(double h);
  void floor_regularization();
  void project_positions();
  void check_joint(JointId j, const char* what) const;
  JointId add_joint(detail::JointType type, BodyId a, BodyId b, Vec3 p, Vec3 axis, const char* what);
  detail::Motor& motor(MotorId m, const char* what);
  detail::BodyDrive& body_drive(BodyDriveId c, const char* what);
  /// Force mode: adds to force/torque; speed mode: appends the row (after the explicit forces).
  void apply_body_drives(double h);
  /// The implicit loads' terms: added_mass, and their part of the momentum.
  void add_implicit_loads(double h);
  const detail::SpringDamper& spring(ForceElementId id, const char* what) const;
  double inv_h() const { return last_h > 0.0 ? 1.0 / last_h : 0.0; }
};

}  // namespace trackcosim::vehicle
