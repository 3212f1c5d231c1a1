// Upload of a BodySet: inverse mass and inertia are stored (the solver multiplies by them every
// iteration), and are zero for fixed and kinematic bodies, which the solver must not move.

#include "gpu/dynamics/detail/device_bodies.h"

#include <vector>

namespace trackcosim::gpu::detail {

void DeviceBodies::upload(const BodySet& s) {
  const std::size_t n = s.size();
  gid.assign(s.gid.begin(), s.gid.end());
  position.assign(s.px, s.py, s.pz);
  orientation.w.assign(s.qw.begin(), s.qw.end());
  orientation.x.assign(s.qx.begin(), s.qx.end());
  orientation.y.assign(s.qy.begin(), s.qy.end());
  orientation.z.assign(s.qz.begin(), s.qz.end());
  velocity.assign(s.vx, s.vy, s.vz);
  angular_velocity.assign(s.wx, s.wy, s.wz);
  free_velocity.resize(n);
  free_angular_velocity.resize(n);
  std::vector<real> im(n), iix(n), iiy(n), iiz(n), m(n), ix(n), iy(n), iz(n);
  std::vector<std::uint8_t> kind(n);
  for (std::size_t i = 0; i < n; ++i) {
    const bool dynamic = s.motion[i] == Motion::Dynamic;
    kind[i] = static_cast<std::uint8_t>(s.motion[i]);
    m[i] = dynamic ? s.mass[i] : 0;
    ix[i] = dynamic ? s.ix[i] : 0;
    iy[i] = dynamic ? s.iy[i] : 0;
    iz[i] = dynamic ? s.iz[i] : 0;
    im[i] = dynamic ? 1 / s.mass[i] : 0;
    iix[i] = dynamic ? 1 / s.ix[i] : 0;
    iiy[i] = dynamic ? 1 / s.iy[i] : 0;
    iiz[i] = dynamic ? 1 / s.iz[i] : 0;
    if (s.motion[i] == Motion::Fixed) {
      // A fixed body never moves, whatever velocity the description gave it.
      velocity.x[i] = velocity.y[i] = velocity.z[i] = 0;
      angular_velocity.x[i] = angular_velocity.y[i] = angular_velocity.z[i] = 0;
    }
  }
  mass.assign(m.begin(), m.end());
  inv_mass.assign(im.begin(), im.end());
  inertia.assign(ix, iy, iz);
  inv_inertia.assign(iix, iiy, iiz);
  motion.assign(kind.begin(), kind.end());
  friction.assign(s.friction.begin(), s.friction.end());
  force.assign(s.fx, s.fy, s.fz);
  torque.assign(s.tx, s.ty, s.tz);
}

}  // namespace trackcosim::gpu::detail
