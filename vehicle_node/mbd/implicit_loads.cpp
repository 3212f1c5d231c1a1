// The implicit loads of MultibodySystem::set_implicit_load: a spring K and damper C towards an
// anchor moving at constant velocity, integrated with the step's semi-implicit Euler. With u the
// generalised velocity (v, w) and e the pose less the anchor's, the load at the step's end is
//   f+ = -K (e + h (u+ - u_a)) - C (u+ - u_a),
// so M u+ = M u + h f_other + h f+ becomes
//   (M + h^2 K + h C) u+ = M u + h f_other - h K e + (h^2 K + h C) u_a:
// an added mass in the KKT matrix and a momentum term (docs/protocol.md, "Implicit shoe loads").

#include <cmath>

#include "vehicle_node/mbd/system_impl.h"

namespace trackcosim::vehicle {

using namespace detail;

namespace {

using RowMajor6 = Eigen::Matrix<double, 6, 6, Eigen::RowMajor>;

/// The anchor's orientation after `tau` seconds at its constant world-frame angular velocity.
Eigen::Quaterniond anchor_orientation(const BodyState& anchor, double tau) {
  const V3 w = to_eigen(anchor.angular_velocity);
  const double angle = tau * w.norm();
  const Eigen::Quaterniond q0 = to_eigen(anchor.orientation);
  if (angle == 0.0) return q0;
  return Eigen::Quaterniond(Eigen::AngleAxisd(angle, w.normalized())) * q0;
}

/// The world-frame rotation vector that turns `from` into `to`, the short way round.
V3 rotation_between(const Eigen::Quaterniond& from, const Eigen::Quaterniond& to) {
  Eigen::Quaterniond d = to * from.conjugate();
  if (d.w() < 0.0) d.coeffs() = -d.coeffs();
  const double s = d.vec().norm();
  if (s == 0.0) return V3::Zero();
  return (2.0 * std::atan2(s, d.w()) / s) * d.vec();
}

}  // namespace

void MultibodySystem::Impl::add_implicit_loads(double h) {
  added_mass.clear();
  if (implicit_loads.empty()) return;
  added_mass.assign(bodies.moving_count, M6::Zero());
  for (const auto& [i, load] : implicit_loads) {
    const int k = bodies.dof[i];
    if (k < 0) continue;
    const M6 K = Eigen::Map<const RowMajor6>(load.stiffness.data());
    const M6 C = Eigen::Map<const RowMajor6>(load.damping.data());
    const double tau = time - load.anchor_time;
    V6 u_a;
    u_a << to_eigen(load.anchor.velocity), to_eigen(load.anchor.angular_velocity);
    V6 e;
    e << bodies.x[i] - (to_eigen(load.anchor.position) + tau * u_a.head<3>()),
        rotation_between(anchor_orientation(load.anchor, tau), bodies.q[i]);
    const M6 added = h * h * K + h * C;
    momentum[k] += added * u_a - h * (K * e);
    added_mass[k] = added;
  }
}

}  // namespace trackcosim::vehicle
