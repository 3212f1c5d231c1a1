// What a driver asks of the last step without copying it whole: the host copy of the contact
// list on demand, the few contacts of watched bodies, a few bodies' positions and states, the
// bodies near a rank's faces, the fastest body.
// Each runs on the device and copies to the host only its answer (docs/ccp.md, "On a GPU").

#include "gpu/dynamics/rigid_body_system.h"

#include <thrust/copy.h>
#include <thrust/gather.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform_reduce.h>

#include "gpu/dynamics/detail/sorted_ids.h"
#include "gpu/dynamics/detail/system_impl.h"
#include "gpu/memory/execution.h"
#include "gpu/memory/host_copy.h"

namespace trackcosim::gpu {

namespace {

struct TouchesAny {
  const GlobalId *gid_a, *gid_b, *sorted;
  std::size_t count;
  TRACKCOSIM_HD bool operator()(std::uint32_t i) const {
    return detail::holds_gid(sorted, count, gid_a[i]) || detail::holds_gid(sorted, count, gid_b[i]);
  }
};

template <class T>
void gather_into(const thrust::device_vector<std::uint32_t>& index, const thrust::device_vector<T>& from,
                 thrust::device_vector<T>& to) {
  to.resize(index.size());
  thrust::gather(detail::par(), index.begin(), index.end(), from.begin(), to.begin());
}

/// The indices i < n for which `pick(i)` holds, increasing, on the device.
template <class Pick>
thrust::device_vector<std::uint32_t> indices_where(std::size_t n, Pick pick) {
  thrust::device_vector<std::uint32_t> index(n);
  const auto first = thrust::counting_iterator<std::uint32_t>(0);
  const auto end = thrust::copy_if(detail::par(), first, first + static_cast<std::ptrdiff_t>(n), index.begin(), pick);
  index.resize(static_cast<std::size_t>(end - index.begin()));
  return index;
}

/// The contacts for which `pick(i)` holds, on the host, and their indices: only they cross.
template <class Pick>
ContactList contacts_where(const detail::DeviceContacts& c, Pick pick, std::vector<std::uint32_t>& indices) {
  const thrust::device_vector<std::uint32_t> index = indices_where(c.size(), pick);
  detail::DeviceContacts picked;
  gather_into(index, c.gid_a, picked.gid_a);
  gather_into(index, c.gid_b, picked.gid_b);
  gather_into(index, c.shape_a, picked.shape_a);
  gather_into(index, c.shape_b, picked.shape_b);
  const auto from = c.real_fields();
  const auto to = picked.real_fields();
  for (std::size_t f = 0; f < from.size(); ++f) gather_into(index, *from[f], *to[f]);
  detail::download(index, indices);
  return picked.download();
}

/// The values of `from` at `index`, on the host: only they cross.
std::vector<real> picked(const thrust::device_vector<std::uint32_t>& index, const thrust::device_vector<real>& from) {
  thrust::device_vector<real> values;
  gather_into(index, from, values);
  return detail::download(values);
}

/// Whether a point is not deep inside a box: not farther than `width` inside every face (the
/// same comparison, in the same arithmetic, as domain::plan_ghosts's test for a body no
/// neighbour can need).
TRACKCOSIM_HD inline real lower(real a, real b) { return a < b ? a : b; }
TRACKCOSIM_HD inline bool near_faces(real x, real y, real z, Vec3 lo, Vec3 hi, real width) {
  const real inside = lower(lower(lower(x - lo.x, hi.x - x), lower(y - lo.y, hi.y - y)), lower(z - lo.z, hi.z - z));
  return !(inside > width);
}

/// A dynamic body not deep inside a box.
struct NearFaces {
  const real *x, *y, *z;
  const std::uint8_t* motion;
  Vec3 lo, hi;
  real width;
  TRACKCOSIM_HD bool operator()(std::uint32_t i) const {
    return is_dynamic(static_cast<Motion>(motion[i])) && near_faces(x[i], y[i], z[i], lo, hi, width);
  }
};

/// A contact whose midpoint is not deep inside a box, or that touches a listed body.
struct MidpointNearFaces {
  TouchesAny touches;
  const real *ax, *ay, *az, *bx, *by, *bz;
  Vec3 lo, hi;
  real width;
  TRACKCOSIM_HD bool operator()(std::uint32_t i) const {
    return touches(i) || near_faces((ax[i] + bx[i]) / 2, (ay[i] + by[i]) / 2, (az[i] + bz[i]) / 2, lo, hi, width);
  }
};

/// |v|^2 of a body and its index; the order picks the larger speed, then the lower index.
struct SpeedAt {
  real speed_squared;
  std::uint32_t index;
};

struct DynamicSpeed {
  const real *vx, *vy, *vz;
  const std::uint8_t* motion;
  std::uint32_t none;
  TRACKCOSIM_HD SpeedAt operator()(std::uint32_t i) const {
    if (!is_dynamic(static_cast<Motion>(motion[i]))) return {real(-1), none};
    return {vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i], i};
  }
};

struct Faster {
  TRACKCOSIM_HD SpeedAt operator()(const SpeedAt& l, const SpeedAt& r) const {
    if (l.speed_squared != r.speed_squared) return l.speed_squared > r.speed_squared ? l : r;
    return l.index < r.index ? l : r;
  }
};

}  // namespace

const ContactList& RigidBodySystem::host_contacts() {
  Impl& m = *impl_;
  if (!m.host_contacts_current) {
    m.host_contacts = m.contacts.contacts().download();
    m.host_contacts_current = true;
  }
  return m.host_contacts;
}

ContactList RigidBodySystem::contacts_touching(const std::vector<GlobalId>& gids,
                                               std::vector<std::uint32_t>& indices) const {
  const detail::DeviceContacts& c = impl_->contacts.contacts();
  thrust::device_vector<GlobalId> sorted;
  detail::upload(sorted, gids);
  return contacts_where(c, TouchesAny{detail::raw(c.gid_a), detail::raw(c.gid_b), detail::raw(sorted), sorted.size()},
                        indices);
}

ContactList RigidBodySystem::contacts_near_faces(Vec3 lo, Vec3 hi, real width, const std::vector<GlobalId>& gids,
                                                 std::vector<std::uint32_t>& indices) const {
  const detail::DeviceContacts& c = impl_->contacts.contacts();
  thrust::device_vector<GlobalId> sorted;
  detail::upload(sorted, gids);
  const MidpointNearFaces near{
      {detail::raw(c.gid_a), detail::raw(c.gid_b), detail::raw(sorted), sorted.size()},
      detail::raw(c.ax), detail::raw(c.ay), detail::raw(c.az), detail::raw(c.bx), detail::raw(c.by), detail::raw(c.bz),
      lo, hi, width};
  return contacts_where(c, near, indices);
}

std::vector<Vec3> RigidBodySystem::positions(const std::vector<std::uint32_t>& indices) const {
  const detail::DeviceVec3& p = impl_->bodies.position;
  thrust::device_vector<std::uint32_t> index;
  detail::upload(index, indices);
  const std::vector<real> x = picked(index, p.x), y = picked(index, p.y), z = picked(index, p.z);
  std::vector<Vec3> out(indices.size());
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = {x[k], y[k], z[k]};
  return out;
}

std::vector<std::uint32_t> RigidBodySystem::dynamic_bodies_near_faces(Vec3 lo, Vec3 hi, real width) const {
  const detail::DeviceBodies& b = impl_->bodies;
  const NearFaces near{detail::raw(b.position.x), detail::raw(b.position.y), detail::raw(b.position.z),
                       detail::raw(b.motion), lo, hi, width};
  return detail::download(indices_where(b.size(), near));
}

void RigidBodySystem::read_states(const std::vector<std::uint32_t>& indices, BodySet& into) const {
  const detail::DeviceBodies& b = impl_->bodies;
  thrust::device_vector<std::uint32_t> index;
  detail::upload(index, indices);
  const auto copy = [&](const thrust::device_vector<real>& from, std::vector<real>& to) {
    const std::vector<real> values = picked(index, from);
    for (std::size_t k = 0; k < indices.size(); ++k) to[indices[k]] = values[k];
  };
  copy(b.position.x, into.px), copy(b.position.y, into.py), copy(b.position.z, into.pz);
  copy(b.orientation.w, into.qw), copy(b.orientation.x, into.qx), copy(b.orientation.y, into.qy);
  copy(b.orientation.z, into.qz);
  copy(b.velocity.x, into.vx), copy(b.velocity.y, into.vy), copy(b.velocity.z, into.vz);
  copy(b.angular_velocity.x, into.wx), copy(b.angular_velocity.y, into.wy), copy(b.angular_velocity.z, into.wz);
}

RigidBodySystem::FastestBody RigidBodySystem::fastest_dynamic_body() const {
  const detail::DeviceBodies& b = impl_->bodies;
  const auto n = static_cast<std::uint32_t>(b.size());
  const DynamicSpeed speed{detail::raw(b.velocity.x), detail::raw(b.velocity.y), detail::raw(b.velocity.z),
                           detail::raw(b.motion), n};
  const auto first = thrust::counting_iterator<std::uint32_t>(0);
  // The reduction's value is returned, and counted as one element crossing (a synchronisation).
  detail::count_to_host(sizeof(SpeedAt));
  const SpeedAt fastest =
      thrust::transform_reduce(detail::par(), first, first + n, speed, SpeedAt{real(-1), n}, Faster{});
  if (fastest.index == n) return {0, n};
  return {fastest.speed_squared, fastest.index};
}

}  // namespace trackcosim::gpu
