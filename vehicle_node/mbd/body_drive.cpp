// A drive of a body against the world (MultibodySystem::add_body_drive): the carriage of a
// drawbar rig, which holds the chassis at an imposed forward speed and measures the force that
// takes (speed mode), or pulls it back with an imposed force (force mode).
//
// Speed mode, row (body a = the body, no body b): with r the arm from the centre of mass to the point and
// d the world direction, the point's speed along d is  d . (v + w x r) = [d; r x d] . [v; w],
// so J = [d; r x d] and J v+ + sigma lambda = speed. The impulse lambda acts on the body as
// J^T lambda: a force lambda / h along d at the point. Like a motor's speed row it has no
// position to relax; its compliance (joint_compliance / h) lets the speed give by
// joint_compliance x force, far below anything measured.

#include <cmath>
#include <stdexcept>
#include <string>

#include "vehicle_node/mbd/multibody_system.h"
#include "vehicle_node/mbd/system_impl.h"

namespace trackcosim::vehicle {

using detail::to_eigen;
using detail::V3;

BodyDriveId MultibodySystem::add_body_drive(BodyId b, Vec3 local_point, Vec3 world_direction) {
  impl_->bodies.check(b, "add_body_drive");
  const V3 d = to_eigen(world_direction);
  if (!(d.norm() > 0.0) || !std::isfinite(d.norm()) ||
      !std::isfinite(local_point.x + local_point.y + local_point.z))
    throw std::invalid_argument("add_body_drive: body " + impl_->bodies.name[b.value] +
                                ": the direction must be a finite non-zero vector and the point finite");
  if (impl_->bodies.dof[b.value] < 0)
    throw std::invalid_argument("add_body_drive: body " + impl_->bodies.name[b.value] + " is fixed");
  detail::BodyDrive c;
  c.body = static_cast<int>(b.value);
  c.local_point = to_eigen(local_point);
  c.direction = d.normalized();
  impl_->body_drives.push_back(c);
  return BodyDriveId{static_cast<std::uint32_t>(impl_->body_drives.size() - 1)};
}

detail::BodyDrive& MultibodySystem::Impl::body_drive(BodyDriveId c, const char* what) {
  if (c.value >= body_drives.size())
    throw std::invalid_argument(std::string(what) + ": unknown speed control id " + std::to_string(c.value));
  return body_drives[c.value];
}

void MultibodySystem::set_body_drive_speed(BodyDriveId c, double m_per_s) {
  if (!std::isfinite(m_per_s)) throw std::invalid_argument("set_body_drive_speed: the speed must be finite");
  detail::BodyDrive& control = impl_->body_drive(c, "set_body_drive_speed");
  control.mode = detail::BodyDriveMode::kSpeed;
  control.speed = m_per_s;
}

void MultibodySystem::set_body_drive_force(BodyDriveId c, double newtons) {
  if (!std::isfinite(newtons)) throw std::invalid_argument("set_body_drive_force: the force must be finite");
  detail::BodyDrive& control = impl_->body_drive(c, "set_body_drive_force");
  control.mode = detail::BodyDriveMode::kForce;
  control.force = newtons;
}

void MultibodySystem::release_body_drive(BodyDriveId c) {
  impl_->body_drive(c, "release_body_drive").mode = detail::BodyDriveMode::kReleased;
}

double MultibodySystem::body_drive_force(BodyDriveId c) const {
  return impl_->body_drive(c, "body_drive_force").applied_force;
}

void MultibodySystem::Impl::apply_body_drives(double h) {
  for (detail::BodyDrive& c : body_drives) {
    c.row = -1;
    c.applied_force = 0.0;
    if (c.mode == detail::BodyDriveMode::kReleased) continue;
    const V3 arm = bodies.q[c.body] * c.local_point;
    if (c.mode == detail::BodyDriveMode::kForce) {
      force[c.body] += c.force * c.direction;
      torque[c.body] += arm.cross(c.force * c.direction);
      c.applied_force = c.force;
      continue;
    }
    detail::ConstraintRow r;
    r.body_a = c.body;
    r.ja = detail::stack(c.direction, arm.cross(c.direction));
    r.sigma = settings.joint_compliance / h;
    r.rhs = c.speed;
    c.row = static_cast<int>(rows.size());
    rows.push_back(r);
  }
}

}  // namespace trackcosim::vehicle
