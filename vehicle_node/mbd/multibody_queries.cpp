// Queries on the current state and on the reactions of the last step.

#include <algorithm>
#include <stdexcept>
#include <string>

#include "vehicle_node/mbd/system_impl.h"

namespace trackcosim::vehicle {

using namespace detail;


Vec3 MultibodySystem::ground_contact_force(BodyId b) const {
  impl_->bodies.check(b, "ground_contact_force");
  V3 f = V3::Zero();
  for (std::size_t c = 0; c < impl_->contacts.size(); ++c)
    if (impl_->contacts[c].body_b < 0 && impl_->contacts[c].body_a == static_cast<int>(b.value))
      f += impl_->contact_impulse[c];
  return to_vec3(f * impl_->inv_h());
}

Vec3 MultibodySystem::contact_force_between(BodyId a, BodyId b) const {
  impl_->bodies.check(a, "contact_force_between");
  impl_->bodies.check(b, "contact_force_between");
  V3 f = V3::Zero();
  const int ia = static_cast<int>(a.value), ib = static_cast<int>(b.value);
  for (std::size_t c = 0; c < impl_->contacts.size(); ++c) {
    const Contact& k = impl_->contacts[c];
    if (k.body_a == ia && k.body_b == ib) f += impl_->contact_impulse[c];
    if (k.body_a == ib && k.body_b == ia) f -= impl_->contact_impulse[c];
  }
  return to_vec3(f * impl_->inv_h());
}

Vec3 MultibodySystem::body_contact_force(BodyId b) const {
  impl_->bodies.check(b, "body_contact_force");
  V3 f = V3::Zero();
  const int ib = static_cast<int>(b.value);
  for (std::size_t c = 0; c < impl_->contacts.size(); ++c) {
    const Contact& k = impl_->contacts[c];
    if (k.body_b < 0) continue;
    if (k.body_a == ib) f += impl_->contact_impulse[c];
    if (k.body_b == ib) f -= impl_->contact_impulse[c];
  }
  return to_vec3(f * impl_->inv_h());
}

Vec3 MultibodySystem::joint_force(JointId j, BodyId b) const {
  impl_->check_joint(j, "joint_force");
  const Joint& jt = impl_->joints[j.value];
  if (b.value != static_cast<std::uint32_t>(jt.a) && b.value != static_cast<std::uint32_t>(jt.b))
    throw std::invalid_argument("joint_force: body " + std::to_string(b.value) + " is not part of joint " +
                                std::to_string(j.value));
  if (jt.first_row < 0 || jt.first_row + 5 > static_cast<int>(impl_->rows.size())) return {0.0, 0.0, 0.0};
  V3 f = V3::Zero();
  for (int r = jt.first_row; r < jt.first_row + 5; ++r) {
    const ConstraintRow& row = impl_->rows[r];
    f += row.lambda * (b.value == static_cast<std::uint32_t>(jt.a) ? row.ja : row.jb).head<3>();
  }
  return to_vec3(f * impl_->inv_h());
}

double MultibodySystem::joint_violation(JointId j) const {
  impl_->check_joint(j, "joint_violation");
  return joint_position_violation(impl_->joints[j.value], impl_->bodies);
}

double MultibodySystem::max_joint_violation() const {
  double v = 0.0;
  for (const Joint& j : impl_->joints) v = std::max(v, joint_position_violation(j, impl_->bodies));
  return v;
}

double MultibodySystem::prismatic_displacement(JointId j) const {
  impl_->check_joint(j, "prismatic_displacement");
  const Joint& jt = impl_->joints[j.value];
  if (jt.type != JointType::kPrismatic)
    throw std::invalid_argument("prismatic_displacement: joint " + std::to_string(j.value) + " is not prismatic");
  return prismatic_travel(jt, impl_->bodies);
}

double MultibodySystem::revolute_speed(JointId j) const {
  impl_->check_joint(j, "revolute_speed");
  const Joint& jt = impl_->joints[j.value];
  return joint_axis_world(jt, impl_->bodies).dot(impl_->bodies.w[jt.b] - impl_->bodies.w[jt.a]);
}

const SpringDamper& MultibodySystem::Impl::spring(ForceElementId id, const char* what) const {
  if (id.value >= springs.size())
    throw std::invalid_argument(std::string(what) + ": unknown spring-damper id " + std::to_string(id.value));
  return springs[id.value];
}

double MultibodySystem::spring_length(ForceElementId s) const {
  return spring_geometry(impl_->spring(s, "spring_length"), impl_->bodies).length;
}

double MultibodySystem::spring_force(ForceElementId s) const {
  const SpringDamper& sd = impl_->spring(s, "spring_force");
  return detail::spring_force(sd, spring_geometry(sd, impl_->bodies));
}

}  // namespace trackcosim::vehicle
