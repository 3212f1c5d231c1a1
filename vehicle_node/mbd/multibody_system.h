#pragma once
// The multibody engine of vehicle_node: rigid bodies, revolute and prismatic joints, spring-
// dampers, rotational motors, frictional contacts between sphere sets, cylinders and a rigid
// ground, stepped with a velocity-level time stepper whose constraint forces come from one
// sparse direct (LDL^T) solve of the regularised KKT system per active-set iteration. See
// docs/vehicle-engine.md for the equations and why the solver is direct.
//
// Contract (all calls from one thread; SI units; world frame X forward, Y left, Z up; angular
// velocities in the world frame; quaternions (w, x, y, z) body -> world):
//  * Build the model with the add_* calls, then step(). Bodies, joints, force elements,
//    motors and shapes may be added between steps (the next step re-analyses the pattern).
//  * Joints are defined from the bodies' poses at the moment add_* is called.
//  * Bad input (mass <= 0, zero axis, joint on one body, unknown id, ...) throws
//    std::invalid_argument naming the body or joint.
//  * Results that describe "the last step" (forces, torques, report) are valid after the
//    first step() and refer to the most recent one.

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "math/vec3.h"
#include "vehicle_node/mbd/ground.h"
#include "vehicle_node/mbd/mbd_types.h"
#include "vehicle_node/mbd/multibody_state.h"

namespace trackcosim::vehicle {

class MultibodySystem {
 public:
  explicit MultibodySystem(SolverSettings settings = {});
  ~MultibodySystem();
  MultibodySystem(MultibodySystem&&) noexcept;
  MultibodySystem& operator=(MultibodySystem&&) noexcept;
  MultibodySystem(const MultibodySystem&) = delete;
  MultibodySystem& operator=(const MultibodySystem&) = delete;

  // ---- model -------------------------------------------------------------------------
  BodyId add_body(const BodyDesc& desc);

  /// Hinge: body b rotates relative to a about world_axis through world_point only
  /// (3 position + 2 orientation rows).
  JointId add_revolute(BodyId a, BodyId b, Vec3 world_point, Vec3 world_axis);

  /// Slider: b translates relative to a along world_axis only, no relative rotation
  /// (2 position + 3 orientation rows). Travel is measured from the pose at this call.
  JointId add_prismatic(BodyId a, BodyId b, Vec3 world_point, Vec3 world_axis);

  /// End stops of a prismatic joint: min_travel <= prismatic_displacement <= max_travel,
  /// enforced as unilateral constraint rows (min_travel < max_travel).
  void set_prismatic_limits(JointId prismatic, double min_travel, double max_travel);

  /// Spring-damper between two attachment points, force along the line joining them:
  ///   F = preload + stiffness (rest_length - L) - damping dL/dt   (F > 0 pushes apart).
  /// Applied as an explicit force: stable for h < 2 / sqrt(stiffness / m_eff) and
  /// damping h / m_eff < 1 (m_eff the reduced mass of the two bodies).
  ForceElementId add_spring_damper(BodyId a, BodyId b, Vec3 world_point_a, Vec3 world_point_b,
                                   double stiffness, double damping, double rest_length,
                                   double preload);

  /// Motor on a revolute joint; it acts on body b relative to a about the joint axis (as
  /// oriented at add_revolute). Starts free (no torque).
  MotorId add_rotational_motor(JointId revolute);
  /// Speed control: relative angular velocity of b w.r.t. a about the axis is driven to
  /// rad_per_s (a velocity constraint row), with |torque| <= max_torque.
  void set_motor_speed(MotorId m, double rad_per_s,
                       double max_torque = std::numeric_limits<double>::infinity());
  /// Torque control: +torque on b, -torque on a, about the axis (N m).
  void set_motor_torque(MotorId m, double torque);
  /// Coast: the motor applies no torque.
  void set_motor_free(MotorId m);

  /// A drive of body b against the world (a drawbar rig's carriage), acting at the body's point
  /// `local_point` (body frame, from the centre of mass) along `world_direction` only, so the
  /// body stays free in every other direction. Starts released (no force).
  BodyDriveId add_body_drive(BodyId b, Vec3 local_point, Vec3 world_direction);
  /// Speed mode: the point's velocity along the direction is held at m_per_s, by whatever force
  /// that takes (an unbounded velocity row).
  void set_body_drive_speed(BodyDriveId c, double m_per_s);
  /// Force mode: a force of `newtons` along the direction at the point (+ along it), explicit.
  /// Apart from set_external_force, which other parts of a model may hold on the same body.
  void set_body_drive_force(BodyDriveId c, double newtons);
  void release_body_drive(BodyDriveId c);
  /// Force the drive applied to its body along its direction in the last step (N; 0 released).
  double body_drive_force(BodyDriveId c) const;

  /// Contact shapes. A family is a small integer; which families touch each other is set by
  /// set_family_collides (default: no body-body pair of families collides). Sphere sets touch
  /// the ground unless set_ground_collides(family, false). Supported pairs: sphere-sphere,
  /// sphere-cylinder, sphere-ground. Bodies joined by a joint never collide.
  void add_contact_spheres(BodyId b, std::vector<LocalSphere> spheres, std::uint32_t family);
  /// Solid cylinder (body frame): centre, axis (unit after normalization), radius, half width.
  void add_contact_cylinder(BodyId b, Vec3 local_center, Vec3 local_axis, double radius,
                            double half_width, std::uint32_t family);
  void set_family_collides(std::uint32_t fa, std::uint32_t fb, bool collides);
  void set_ground_collides(std::uint32_t family, bool collides);

  /// Ground (nullptr: none) and its Coulomb friction coefficient.
  void set_ground(std::shared_ptr<const Ground> ground, double friction);
  /// Coulomb friction coefficient for all body-body contacts.
  void set_friction(double mu);
  void set_gravity(Vec3 g);
  /// External force and torque about the centre of mass, world frame, held until changed.
  void set_external_force(BodyId b, Vec3 force, Vec3 torque_about_com);
  /// A spring-damper between b and a moving anchor, integrated implicitly and held until changed
  /// (docs/protocol.md, "Implicit shoe loads"): b gets -K e - C (u - u_anchor), u = (v, w), e its
  /// pose less the anchor's, besides its external force. A co-simulated vehicle gets the terrain's
  /// contact stiffness this way, so stiff shoe springs stay stable.
  void set_implicit_load(BodyId b, const ImplicitLoad& load);
  void clear_implicit_loads();
  /// A dashpot between b and the world, held until changed: F = -m rate v and T = -I rate w
  /// (world frame), explicit, so every velocity of b alone decays as exp(-rate t). It carries
  /// nothing at rest. rate in 1/s, >= 0 (0: none) and at most 1 / h of the steps taken.
  void set_world_damping(BodyId b, double rate_per_s);
  void set_solver_settings(const SolverSettings& s);

  // ---- stepping ------------------------------------------------------------------------
  void step(double h);
  double time() const;

  // ---- queries -------------------------------------------------------------------------
  std::size_t body_count() const;
  const std::string& body_name(BodyId b) const;
  BodyState state(BodyId b) const;
  /// Overwrite a body's state (e.g., to place the vehicle); joints are not re-assembled.
  void set_state(BodyId b, const BodyState& s);

  /// Ground contact force on b over the last step (impulse / h), world frame, N.
  Vec3 ground_contact_force(BodyId b) const;
  /// Contact force on a from b over the last step (impulse / h), world frame, N.
  Vec3 contact_force_between(BodyId a, BodyId b) const;
  /// Sum of all body-body contact forces on b over the last step, N.
  Vec3 body_contact_force(BodyId b) const;
  /// Constraint reaction force on body b of joint j over the last step (N, world).
  Vec3 joint_force(JointId j, BodyId b) const;

  /// Position-level violation of one joint now (m), as in max_joint_violation.
  double joint_violation(JointId j) const;
  /// Largest position-level violation over all revolute/prismatic joints now (m): anchor
  /// separation for revolutes, off-axis offset for prismatics.
  double max_joint_violation() const;
  /// Travel of a prismatic joint along its axis since assembly (m, + along the axis).
  double prismatic_displacement(JointId prismatic) const;
  /// Relative angular velocity of b w.r.t. a about a revolute joint's axis (rad/s).
  double revolute_speed(JointId revolute) const;
  /// Current length and force (positive pushes apart) of a spring-damper.
  double spring_length(ForceElementId s) const;
  double spring_force(ForceElementId s) const;
  /// Torque the motor applied to body b about the axis in the last step (N m).
  double motor_torque(MotorId m) const;

  // ---- checkpoints (multibody_state.h) ------------------------------------------------
  /// The state carried between steps.
  MultibodyState save_state() const;
  /// Puts a saved state back onto the same model (same bodies, motors and joints, built the same
  /// way); the next step() then continues bit for bit. Throws std::invalid_argument naming the
  /// count that differs from this system's.
  void restore_state(const MultibodyState& state);

  const StepReport& last_report() const;
  const SolverSettings& solver_settings() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace trackcosim::vehicle
