// The public API: model building, settings and queries. The step itself is multibody_step.cpp.

#include "vehicle_node/mbd/multibody_system.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "vehicle_node/mbd/system_impl.h"

namespace trackcosim::vehicle {

using detail::to_eigen;
using detail::to_vec3;
using detail::V3;

namespace {
bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
void check_settings(const SolverSettings& s) {
  if (!(s.joint_compliance > 0.0) || !(s.contact_compliance > 0.0))
    throw std::invalid_argument("solver settings: joint_compliance and contact_compliance must be > 0");
  if (!(s.relaxation_steps >= 0.0) || !(s.contact_margin >= 0.0) || !(s.relative_compliance_floor >= 0.0) ||
      s.max_active_set_iterations < 1)
    throw std::invalid_argument(
        "solver settings: relaxation_steps, contact_margin and relative_compliance_floor must be >= 0, max_active_set_iterations >= 1");
}
}  // namespace

MultibodySystem::MultibodySystem(SolverSettings settings) : impl_(std::make_unique<Impl>()) {
  check_settings(settings);
  impl_->settings = settings;
}
MultibodySystem::~MultibodySystem() = default;
MultibodySystem::MultibodySystem(MultibodySystem&&) noexcept = default;
MultibodySystem& MultibodySystem::operator=(MultibodySystem&&) noexcept = default;

void MultibodySystem::Impl::check_joint(JointId j, const char* what) const {
  if (j.value >= joints.size())
    throw std::invalid_argument(std::string(what) + ": unknown joint id " + std::to_string(j.value) + " (the system has " +
                                std::to_string(joints.size()) + " joints)");
}

BodyId MultibodySystem::add_body(const BodyDesc& desc) {
  const int i = impl_->bodies.add(desc);
  impl_->force.resize(impl_->bodies.size());
  impl_->torque.resize(impl_->bodies.size());
  return BodyId{static_cast<std::uint32_t>(i)};
}

JointId MultibodySystem::Impl::add_joint(detail::JointType type, BodyId a, BodyId b, Vec3 p, Vec3 axis,
                                         const char* what) {
  auto& s = *this;
  s.bodies.check(a, what);
  s.bodies.check(b, what);
  s.joints.push_back(detail::make_joint(type, s.bodies, static_cast<int>(a.value), static_cast<int>(b.value),
                                        to_eigen(p), to_eigen(axis)));
  s.collision.exclude_pair(static_cast<int>(a.value), static_cast<int>(b.value));
  return JointId{static_cast<std::uint32_t>(s.joints.size() - 1)};
}

JointId MultibodySystem::add_revolute(BodyId a, BodyId b, Vec3 world_point, Vec3 world_axis) {
  return impl_->add_joint(detail::JointType::kRevolute, a, b, world_point, world_axis, "add_revolute");
}

JointId MultibodySystem::add_prismatic(BodyId a, BodyId b, Vec3 world_point, Vec3 world_axis) {
  return impl_->add_joint(detail::JointType::kPrismatic, a, b, world_point, world_axis, "add_prismatic");
}

void MultibodySystem::set_prismatic_limits(JointId j, double min_travel, double max_travel) {
  impl_->check_joint(j, "set_prismatic_limits");
  detail::Joint& jt = impl_->joints[j.value];
  const std::string who = "set_prismatic_limits: joint " + std::to_string(j.value) + " ('" +
                          impl_->bodies.name[jt.a] + "' - '" + impl_->bodies.name[jt.b] + "')";
  if (jt.type != detail::JointType::kPrismatic) throw std::invalid_argument(who + " is not prismatic");
  if (!(min_travel < max_travel) || !std::isfinite(min_travel) || !std::isfinite(max_travel))
    throw std::invalid_argument(who + ": needs finite min_travel < max_travel");
  jt.limited = true;
  jt.min_travel = min_travel;
  jt.max_travel = max_travel;
}

ForceElementId MultibodySystem::add_spring_damper(BodyId a, BodyId b, Vec3 world_point_a, Vec3 world_point_b,
                                                  double stiffness, double damping, double rest_length,
                                                  double preload) {
  auto& s = *impl_;
  s.bodies.check(a, "add_spring_damper");
  s.bodies.check(b, "add_spring_damper");
  const std::string who = "spring-damper between '" + s.bodies.name[a.value] + "' and '" + s.bodies.name[b.value] + "'";
  if (a == b) throw std::invalid_argument(who + ": needs two different bodies");
  if (!(stiffness >= 0.0) || !(damping >= 0.0) || !(rest_length >= 0.0) || !std::isfinite(stiffness) ||
      !std::isfinite(damping) || !std::isfinite(rest_length) || !std::isfinite(preload))
    throw std::invalid_argument(who + ": stiffness, damping and rest length must be finite and >= 0");
  if (!finite(world_point_a) || !finite(world_point_b)) throw std::invalid_argument(who + ": points must be finite");
  const int ia = static_cast<int>(a.value), ib = static_cast<int>(b.value);
  s.springs.push_back({ia, ib, s.bodies.q[ia].conjugate() * (to_eigen(world_point_a) - s.bodies.x[ia]),
                       s.bodies.q[ib].conjugate() * (to_eigen(world_point_b) - s.bodies.x[ib]), stiffness, damping,
                       rest_length, preload});
  return ForceElementId{static_cast<std::uint32_t>(s.springs.size() - 1)};
}

MotorId MultibodySystem::add_rotational_motor(JointId revolute) {
  impl_->check_joint(revolute, "add_rotational_motor");
  if (impl_->joints[revolute.value].type != detail::JointType::kRevolute)
    throw std::invalid_argument("add_rotational_motor: joint " + std::to_string(revolute.value) + " is not revolute");
  detail::Motor m;
  m.joint = static_cast<int>(revolute.value);
  impl_->motors.push_back(m);
  return MotorId{static_cast<std::uint32_t>(impl_->motors.size() - 1)};
}

detail::Motor& MultibodySystem::Impl::motor(MotorId m, const char* what) {
  if (m.value >= motors.size())
    throw std::invalid_argument(std::string(what) + ": unknown motor id " + std::to_string(m.value));
  return motors[m.value];
}

void MultibodySystem::set_motor_speed(MotorId m, double rad_per_s, double max_torque) {
  if (!std::isfinite(rad_per_s) || !(max_torque > 0.0))
    throw std::invalid_argument("set_motor_speed: speed must be finite and max_torque > 0");
  auto& mo = impl_->motor(m, "set_motor_speed");
  mo.mode = detail::MotorMode::kSpeed;
  mo.speed = rad_per_s;
  mo.max_torque = max_torque;
}

void MultibodySystem::set_motor_torque(MotorId m, double torque) {
  if (!std::isfinite(torque)) throw std::invalid_argument("set_motor_torque: torque must be finite");
  auto& mo = impl_->motor(m, "set_motor_torque");
  mo.mode = detail::MotorMode::kTorque;
  mo.torque = torque;
}

void MultibodySystem::set_motor_free(MotorId m) { impl_->motor(m, "set_motor_free").mode = detail::MotorMode::kFree; }

double MultibodySystem::motor_torque(MotorId m) const {
  return impl_->motor(m, "motor_torque").applied_torque;
}

void MultibodySystem::add_contact_spheres(BodyId b, std::vector<LocalSphere> spheres, std::uint32_t family) {
  impl_->bodies.check(b, "add_contact_spheres");
  const std::string who = "contact spheres of '" + impl_->bodies.name[b.value] + "'";
  if (spheres.empty()) throw std::invalid_argument(who + ": the sphere set is empty");
  std::vector<V3> centers;
  std::vector<double> radii;
  for (const LocalSphere& s : spheres) {
    if (!(s.radius > 0.0) || !std::isfinite(s.radius) || !finite(s.offset))
      throw std::invalid_argument(who + ": every sphere needs a finite offset and radius > 0");
    centers.push_back(to_eigen(s.offset));
    radii.push_back(s.radius);
  }
  impl_->collision.add_spheres(static_cast<int>(b.value), centers, radii, family);
}

void MultibodySystem::add_contact_cylinder(BodyId b, Vec3 local_center, Vec3 local_axis, double radius,
                                           double half_width, std::uint32_t family) {
  impl_->bodies.check(b, "add_contact_cylinder");
  const std::string who = "contact cylinder of '" + impl_->bodies.name[b.value] + "'";
  const V3 axis = to_eigen(local_axis);
  if (!(axis.norm() > 1e-12) || !axis.allFinite()) throw std::invalid_argument(who + ": axis must be non-zero");
  if (!(radius > 0.0) || !(half_width > 0.0) || !finite(local_center))
    throw std::invalid_argument(who + ": radius and half width must be > 0");
  impl_->collision.add_cylinder(static_cast<int>(b.value), to_eigen(local_center), axis.normalized(), radius,
                                half_width, family);
}

void MultibodySystem::set_family_collides(std::uint32_t fa, std::uint32_t fb, bool c) {
  impl_->collision.set_family_collides(fa, fb, c);
}
void MultibodySystem::set_ground_collides(std::uint32_t family, bool c) { impl_->collision.set_ground_collides(family, c); }

void MultibodySystem::set_ground(std::shared_ptr<const Ground> ground, double friction) {
  if (!(friction >= 0.0) || !std::isfinite(friction)) throw std::invalid_argument("set_ground: friction must be >= 0");
  impl_->ground = std::move(ground);
  impl_->ground_friction = friction;
}

void MultibodySystem::set_friction(double mu) {
  if (!(mu >= 0.0) || !std::isfinite(mu)) throw std::invalid_argument("set_friction: friction must be >= 0");
  impl_->friction = mu;
}

void MultibodySystem::set_gravity(Vec3 g) {
  if (!finite(g)) throw std::invalid_argument("set_gravity: gravity must be finite");
  impl_->gravity = to_eigen(g);
}

void MultibodySystem::set_world_damping(BodyId b, double rate_per_s) {
  impl_->bodies.check(b, "set_world_damping");
  if (!(rate_per_s >= 0.0) || !std::isfinite(rate_per_s))
    throw std::invalid_argument("set_world_damping: the rate on '" + impl_->bodies.name[b.value] +
                                "' must be finite and >= 0");
  impl_->bodies.world_damping[b.value] = rate_per_s;
}

void MultibodySystem::set_external_force(BodyId b, Vec3 force, Vec3 torque_about_com) {
  impl_->bodies.check(b, "set_external_force");
  if (!finite(force) || !finite(torque_about_com))
    throw std::invalid_argument("set_external_force: force on '" + impl_->bodies.name[b.value] + "' is not finite");
  impl_->bodies.f_ext[b.value] = to_eigen(force);
  impl_->bodies.t_ext[b.value] = to_eigen(torque_about_com);
}

void MultibodySystem::set_implicit_load(BodyId b, const ImplicitLoad& load) {
  impl_->bodies.check(b, "set_implicit_load");
  for (std::size_t i = 0; i < 36; ++i)
    if (!std::isfinite(load.stiffness[i]) || !std::isfinite(load.damping[i]))
      throw std::invalid_argument("set_implicit_load: the load on '" + impl_->bodies.name[b.value] + "' is not finite");
  impl_->implicit_loads[b.value] = load;
}

void MultibodySystem::clear_implicit_loads() { impl_->implicit_loads.clear(); }

void MultibodySystem::set_solver_settings(const SolverSettings& s) {
  check_settings(s);
  impl_->settings = s;
}
const SolverSettings& MultibodySystem::solver_settings() const { return impl_->settings; }

void MultibodySystem::step(double h) { impl_->step(h); }
double MultibodySystem::time() const { return impl_->time; }
std::size_t MultibodySystem::body_count() const { return impl_->bodies.size(); }

const std::string& MultibodySystem::body_name(BodyId b) const {
  impl_->bodies.check(b, "body_name");
  return impl_->bodies.name[b.value];
}

BodyState MultibodySystem::state(BodyId b) const {
  const auto& B = impl_->bodies;
  B.check(b, "state");
  return {to_vec3(B.x[b.value]), detail::to_quat(B.q[b.value]), to_vec3(B.v[b.value]), to_vec3(B.w[b.value])};
}

void MultibodySystem::set_state(BodyId b, const BodyState& s) {
  auto& B = impl_->bodies;
  B.check(b, "set_state");
  B.x[b.value] = to_eigen(s.position);
  B.q[b.value] = to_eigen(s.orientation).normalized();
  if (!B.fixed(static_cast<int>(b.value))) {
    B.v[b.value] = to_eigen(s.velocity);
    B.w[b.value] = to_eigen(s.angular_velocity);
  }
}

const StepReport& MultibodySystem::last_report() const { return impl_->report; }

}  // namespace trackcosim::vehicle
