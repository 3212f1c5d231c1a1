// MultibodySystem::save_state / restore_state: the state carried between steps (why these
// fields and no others: multibody_state.h).

#include <algorithm>
#include <stdexcept>
#include <string>

#include "vehicle_node/mbd/system_impl.h"

namespace trackcosim::vehicle {

namespace {

void put3(double* out, const detail::V3& v) { out[0] = v.x(), out[1] = v.y(), out[2] = v.z(); }
detail::V3 get3(const double* in) { return {in[0], in[1], in[2]}; }

void check_count(const char* what, std::size_t saved, std::size_t here) {
  if (saved != here)
    throw std::invalid_argument("restore_state: the saved state has " + std::to_string(saved) + " " + what +
                                ", this system " + std::to_string(here) + " (a different vehicle model?)");
}

}  // namespace

MultibodyState MultibodySystem::save_state() const {
  const Impl& s = *impl_;
  const detail::BodyStore& b = s.bodies;
  MultibodyState out;
  out.time = s.time;
  out.last_step = s.last_h;
  out.bodies.resize(b.size());
  for (std::size_t i = 0; i < b.size(); ++i) {
    MultibodyState::Body& o = out.bodies[i];
    put3(o.position, b.x[i]);
    const Eigen::Quaterniond& q = b.q[i];
    o.orientation[0] = q.w(), o.orientation[1] = q.x(), o.orientation[2] = q.y(), o.orientation[3] = q.z();
    put3(o.velocity, b.v[i]);
    put3(o.angular_velocity, b.w[i]);
    put3(o.external_force, b.f_ext[i]);
    put3(o.external_torque, b.t_ext[i]);
  }
  for (const detail::Motor& m : s.motors)
    out.motors.push_back({static_cast<std::uint8_t>(m.mode), static_cast<std::uint8_t>(m.state), m.speed,
                          m.max_torque, m.torque, m.applied_torque});
  for (const detail::Joint& j : s.joints)
    out.joint_limit_states.push_back(
        {static_cast<std::uint8_t>(j.limit_state[0]), static_cast<std::uint8_t>(j.limit_state[1])});
  for (const auto& [key, warm] : s.warm) {
    MultibodyState::ContactMemory c;
    c.key = key;
    for (int k = 0; k < 3; ++k) c.row_state[k] = static_cast<std::uint8_t>(warm.state[k]), c.lambda[k] = warm.lambda[k];
    out.contacts.push_back(c);
  }
  // The map's order is the hash table's: sort, so equal states give equal files.
  std::sort(out.contacts.begin(), out.contacts.end(), [](const auto& l, const auto& r) { return l.key < r.key; });
  return out;
}

void MultibodySystem::restore_state(const MultibodyState& state) {
  Impl& s = *impl_;
  detail::BodyStore& b = s.bodies;
  check_count("bodies", state.bodies.size(), b.size());
  check_count("motors", state.motors.size(), s.motors.size());
  check_count("joints", state.joint_limit_states.size(), s.joints.size());
  auto row_state = [](std::uint8_t v) {
    if (v > static_cast<std::uint8_t>(detail::RowState::kAtUpper))
      throw std::invalid_argument("restore_state: row state code " + std::to_string(v) + " (expected 0, 1 or 2)");
    return static_cast<detail::RowState>(v);
  };
  for (std::size_t i = 0; i < b.size(); ++i) {
    const MultibodyState::Body& o = state.bodies[i];
    b.x[i] = get3(o.position);
    // Copied, not normalized: normalizing again could change the last bit.
    b.q[i] = Eigen::Quaterniond(o.orientation[0], o.orientation[1], o.orientation[2], o.orientation[3]);
    b.v[i] = get3(o.velocity);
    b.w[i] = get3(o.angular_velocity);
    b.f_ext[i] = get3(o.external_force);
    b.t_ext[i] = get3(o.external_torque);
  }
  for (std::size_t i = 0; i < s.motors.size(); ++i) {
    const MultibodyState::Motor& o = state.motors[i];
    if (o.mode > static_cast<std::uint8_t>(detail::MotorMode::kTorque))
      throw std::invalid_argument("restore_state: motor " + std::to_string(i) + " has mode code " +
                                  std::to_string(o.mode) + " (expected 0, 1 or 2)");
    detail::Motor& m = s.motors[i];
    m.mode = static_cast<detail::MotorMode>(o.mode);
    m.state = row_state(o.row_state);
    m.speed = o.speed, m.max_torque = o.max_torque, m.torque = o.torque, m.applied_torque = o.applied_torque;
  }
  for (std::size_t i = 0; i < s.joints.size(); ++i)
    for (int k = 0; k < 2; ++k) s.joints[i].limit_state[k] = row_state(state.joint_limit_states[i][k]);
  s.warm.clear();
  for (const MultibodyState::ContactMemory& c : state.contacts) {
    ContactWarmStart w;
    for (int k = 0; k < 3; ++k) w.state[k] = row_state(c.row_state[k]), w.lambda[k] = c.lambda[k];
    s.warm.emplace(c.key, w);
  }
  s.time = state.time;
  s.last_h = state.last_step;
}

}  // namespace trackcosim::vehicle
