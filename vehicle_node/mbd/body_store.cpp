#include "vehicle_node/mbd/body_store.h"

#include <cmath>
#include <stdexcept>

namespace trackcosim::vehicle::detail {

namespace {
bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
}  // namespace

int BodyStore::add(const BodyDesc& d) {
  const std::string who = "body '" + d.name + "'";
  if (!d.fixed) {
    if (!(d.mass > 0.0) || !std::isfinite(d.mass))
      throw std::invalid_argument(who + ": mass must be > 0 kg, got " + std::to_string(d.mass));
    if (!(d.inertia.x > 0.0 && d.inertia.y > 0.0 && d.inertia.z > 0.0) || !finite(d.inertia))
      throw std::invalid_argument(who + ": principal inertia moments must all be > 0 kg m^2");
  }
  const double qn = std::sqrt(d.orientation.w * d.orientation.w + d.orientation.x * d.orientation.x +
                              d.orientation.y * d.orientation.y + d.orientation.z * d.orientation.z);
  if (!(qn > 1e-12) || !std::isfinite(qn))
    throw std::invalid_argument(who + ": orientation quaternion must be non-zero and finite");
  if (!finite(d.position) || !finite(d.velocity) || !finite(d.angular_velocity))
    throw std::invalid_argument(who + ": position and velocities must be finite");
  x.push_back(to_eigen(d.position));
  v.push_back(d.fixed ? V3::Zero() : to_eigen(d.velocity));
  w.push_back(d.fixed ? V3::Zero() : to_eigen(d.angular_velocity));
  q.push_back(to_eigen(d.orientation).normalized());
  mass.push_back(d.fixed ? 0.0 : d.mass);
  inertia.push_back(d.fixed ? V3::Zero() : to_eigen(d.inertia));
  f_ext.push_back(V3::Zero());
  t_ext.push_back(V3::Zero());
  world_damping.push_back(0.0);
  dof.push_back(d.fixed ? -1 : moving_count++);
  name.push_back(d.name);
  return static_cast<int>(x.size()) - 1;
}

void BodyStore::check(BodyId b, const char* what) const {
  if (b.value >= x.size())
    throw std::invalid_argument(std::string(what) + ": unknown body id " + std::to_string(b.value) +
                                " (the system has " + std::to_string(x.size()) + " bodies)");
}

M3 BodyStore::inertia_world(int i) const {
  const M3 r = q[i].toRotationMatrix();
  return r * inertia[i].asDiagonal() * r.transpose();
}

M3 BodyStore::inv_inertia_world(int i) const {
  const M3 r = q[i].toRotationMatrix();
  return r * inertia[i].cwiseInverse().asDiagonal() * r.transpose();
}

}  // namespace trackcosim::vehicle::detail
