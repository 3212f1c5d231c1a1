#include "terrain_node/output/particle_frame.h"

#include <stdexcept>
#include <string>

namespace trackcosim::terrain {

ParticleFrame particle_frame(const gpu::BodySet& bodies, const std::vector<gpu::BodyState>& states,
                             const std::vector<std::uint8_t>& body_state, const std::vector<real>& body_contact_force) {
  if (states.size() != bodies.size() || (!body_state.empty() && body_state.size() != bodies.size()) ||
      (!body_contact_force.empty() && body_contact_force.size() != bodies.size()))
    throw std::invalid_argument("particle_frame: " + std::to_string(states.size()) + " states, " +
                                std::to_string(body_state.size()) + " classes and " +
                                std::to_string(body_contact_force.size()) + " contact forces for " +
                                std::to_string(bodies.size()) + " bodies");
  ParticleFrame f;
  const std::size_t n = bodies.sphere_radius.size();
  for (auto* v : {&f.x, &f.y, &f.z, &f.radius, &f.vx, &f.vy, &f.vz}) v->resize(n);
  f.gid.resize(n);
  if (!body_state.empty()) f.state.resize(n);
  if (!body_contact_force.empty()) f.contact_force.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const gpu::BodyState& s = states[bodies.sphere_body[i]];
    const Vec3 arm = rotate(s.orientation, {bodies.sphere_ox[i], bodies.sphere_oy[i], bodies.sphere_oz[i]});
    const Vec3 c = s.position + arm;
    const Vec3 v = s.velocity + cross(s.angular_velocity, arm);
    f.x[i] = c.x, f.y[i] = c.y, f.z[i] = c.z;
    f.vx[i] = v.x, f.vy[i] = v.y, f.vz[i] = v.z;
    f.radius[i] = bodies.sphere_radius[i];
    f.gid[i] = s.gid;
    if (!body_state.empty()) f.state[i] = body_state[bodies.sphere_body[i]];
    if (!body_contact_force.empty()) f.contact_force[i] = body_contact_force[bodies.sphere_body[i]];
  }
  return f;
}

}  // namespace trackcosim::terrain
