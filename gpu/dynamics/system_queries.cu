// What a driver asks of the last step without copying it whole: the host copy of the contact
// list on demand, the few contacts of watched bodies, a few bodies' positions, the fastest body.
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
    const bool moves = motion[i] == static_cast<std::uint8_t>(Motion::Dynamic) ||
                       motion[i] == static_cast<std::uint8_t>(Motion::Axial);
    if (!moves) return {real(-1), none};
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
  thrust::device_vector<std::uint32_t> index(c.size());
  const TouchesAny touches{detail::raw(c.gid_a), detail::raw(c.gid_b), detail::raw(sorted), sorted.size()};
  const auto first = thrust::counting_iterator<std::uint32_t>(0);
  const auto end = thrust::copy_if(detail::par(), first, first + static_cast<std::ptrdiff_t>(c.size()), index.begin(),
                                   touches);
  index.resize(static_cast<std::size_t>(end - index.begin()));
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

std::vector<Vec3> RigidBodySystem::positions(const std::vector<std::uint32_t>& indices) const {
  const detail::DeviceVec3& p = impl_->bodies.position;
  thrust::device_vector<std::uint32_t> index;
  detail::upload(index, indices);
  detail::DeviceVec3 picked;
  gather_into(index, p.x, picked.x);
  gather_into(index, p.y, picked.y);
  gather_into(index, p.z, picked.z);
  const std::vector<real> x = detail::download(picked.x), y = detail::download(picked.y),
                          z = detail::download(picked.z);
  std::vector<Vec3> out(indices.size());
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = {x[k], y[k], z[k]};
  return out;
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
