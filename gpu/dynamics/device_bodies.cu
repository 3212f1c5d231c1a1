// Upload of a BodySet: inverse mass and inertia are stored (the solver multiplies by them every
// iteration), and are zero for fixed and kinematic bodies, which the solver must not move.
// Axial bodies keep their full mass and inertia; the projection is in detail/device_bodies.h.
// A regroup (bodies joining and leaving a rank) rebuilds the arrays on the device.

#include "gpu/dynamics/detail/device_bodies.h"

#include <vector>

#include "gpu/dynamics/detail/index_ops.h"
#include "gpu/memory/host_copy.h"

namespace trackcosim::gpu::detail {

void DeviceBodies::upload(const BodySet& s) {
  const std::size_t n = s.size();
  detail::upload(gid, s.gid);
  position.assign(s.px, s.py, s.pz);
  detail::upload(orientation.w, s.qw);
  detail::upload(orientation.x, s.qx);
  detail::upload(orientation.y, s.qy);
  detail::upload(orientation.z, s.qz);
  // A fixed body never moves, whatever velocity the description gave it.
  std::vector<real> vel[6] = {s.vx, s.vy, s.vz, s.wx, s.wy, s.wz};
  // An axial body starts in its subspace: (0, 0, vz), (0, 0, wz) (detail/device_bodies.h).
  for (std::size_t i = 0; i < n; ++i)
    if (s.motion[i] == Motion::Fixed)
      for (auto& v : vel) v[i] = 0;
    else if (s.motion[i] == Motion::Axial)
      vel[0][i] = vel[1][i] = vel[3][i] = vel[4][i] = 0;
  velocity.assign(vel[0], vel[1], vel[2]);
  angular_velocity.assign(vel[3], vel[4], vel[5]);
  free_velocity.resize(n);
  free_angular_velocity.resize(n);
  std::vector<real> im(n), iix(n), iiy(n), iiz(n), m(n), ix(n), iy(n), iz(n);
  std::vector<std::uint8_t> kind(n);
  for (std::size_t i = 0; i < n; ++i) {
    const bool dynamic = is_dynamic(s.motion[i]);
    kind[i] = static_cast<std::uint8_t>(s.motion[i]);
    m[i] = dynamic ? s.mass[i] : 0;
    ix[i] = dynamic ? s.ix[i] : 0;
    iy[i] = dynamic ? s.iy[i] : 0;
    iz[i] = dynamic ? s.iz[i] : 0;
    im[i] = dynamic ? 1 / s.mass[i] : 0;
    iix[i] = dynamic ? 1 / s.ix[i] : 0;
    iiy[i] = dynamic ? 1 / s.iy[i] : 0;
    iiz[i] = dynamic ? 1 / s.iz[i] : 0;
  }
  detail::upload(mass, m);
  detail::upload(inv_mass, im);
  inertia.assign(ix, iy, iz);
  inv_inertia.assign(iix, iiy, iiz);
  detail::upload(motion, kind);
  detail::upload(friction, s.friction);
  force.assign(s.fx, s.fy, s.fz);
  torque.assign(s.tx, s.ty, s.tz);
}

void DeviceBodies::regroup(const DeviceBodies& added, const thrust::device_vector<std::uint32_t>& source) {
  const auto vec3 = [&](DeviceVec3& mine, const DeviceVec3& theirs) {
    gather_concatenated(mine.x, theirs.x, source);
    gather_concatenated(mine.y, theirs.y, source);
    gather_concatenated(mine.z, theirs.z, source);
  };
  gather_concatenated(gid, added.gid, source);
  vec3(position, added.position);
  gather_concatenated(orientation.w, added.orientation.w, source);
  gather_concatenated(orientation.x, added.orientation.x, source);
  gather_concatenated(orientation.y, added.orientation.y, source);
  gather_concatenated(orientation.z, added.orientation.z, source);
  vec3(velocity, added.velocity);
  vec3(angular_velocity, added.angular_velocity);
  gather_concatenated(mass, added.mass, source);
  gather_concatenated(inv_mass, added.inv_mass, source);
  gather_concatenated(friction, added.friction, source);
  vec3(inertia, added.inertia);
  vec3(inv_inertia, added.inv_inertia);
  gather_concatenated(motion, added.motion, source);
  vec3(force, added.force);
  vec3(torque, added.torque);
  free_velocity.resize(source.size());
  free_angular_velocity.resize(source.size());
  ghost.clear();
}

}  // namespace trackcosim::gpu::detail
