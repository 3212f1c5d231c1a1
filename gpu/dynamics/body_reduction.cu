// Per-body sums of the reduction slots (see detail/body_reduction.h for why no atomics).

#include "gpu/dynamics/detail/body_reduction.h"
#include "gpu/memory/execution.h"

#include <thrust/binary_search.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

namespace trackcosim::gpu::detail {

void SlotLists::build(const DeviceContactBlock& contacts, const DeviceRowBlock& rows, std::size_t bodies) {
  const std::size_t nc = contacts.size(), nr = rows.size();
  const std::size_t n = 2 * (nc + nr);
  slot_body.resize(n);
  slots.resize(n);
  const std::uint32_t *ca = raw(contacts.body_a), *cb = raw(contacts.body_b);
  const std::uint32_t *ra = raw(rows.body_a), *rb = raw(rows.body_b);
  thrust::transform(par(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(n),
                    slot_body.begin(), [=] TRACKCOSIM_HD(std::size_t s) -> std::uint32_t {
                      const std::size_t item = s / 2;
                      const bool is_b = (s & 1) != 0;
                      if (item < nc) return is_b ? cb[item] : ca[item];
                      return is_b ? rb[item - nc] : ra[item - nc];
                    });
  thrust::sequence(par(), slots.begin(), slots.end());
  thrust::stable_sort_by_key(par(), slot_body.begin(), slot_body.end(), slots.begin());
  start.resize(bodies + 1);
  thrust::lower_bound(par(), slot_body.begin(), slot_body.end(), thrust::counting_iterator<std::uint32_t>(0),
                      thrust::counting_iterator<std::uint32_t>(static_cast<std::uint32_t>(bodies + 1)),
                      start.begin());
}

ChunkSums gather_velocities(const BodyView& b, SlotView slots, const SlotLists& lists, std::size_t body_count,
                            thrust::device_vector<ChunkSums>& partials, VelocityReference ref) {
  const std::uint32_t* start = raw(lists.start);
  const std::uint32_t* list = raw(lists.slots);
  const auto gather = [=] TRACKCOSIM_HD(std::size_t first, std::size_t last, ChunkSums& sums) {
        for (std::size_t j = first; j < last; ++j) {
          if (!b.summed_here(j)) continue;
          Vec3 p{0, 0, 0}, l{0, 0, 0};
          for (std::uint32_t k = start[j]; k < start[j + 1]; ++k) {
            const SlotImpulse& s = slots.slot[list[k]];
            p = p + s.linear;
            l = l + s.angular;
          }
          const Vec3 dv = b.apply_inv_mass(j, p);  // axial bodies: along e_z only
          const Vec3 dw = b.apply_inv_inertia(j, l);
          const Vec3 v = b.free_velocity.get(j) + dv, w = b.free_angular_velocity.get(j) + dw;
          b.velocity.set(j, v);
          b.angular_velocity.set(j, w);
          if (ref.active) {
            const Vec3 d = v - ref.v.get(j), e = w - ref.w.get(j);
            sums.s[0] += b.mass[j] * dot(d, d) + dot(e, b.apply_inertia(j, e));
          }
        }
      };
  if (!ref.active) {  // a Jacobi iteration: nothing to add up
    for_each_item(body_count, gather);
    return ChunkSums{};
  }
  return for_each_chunk(body_count, gather, partials);
}

}  // namespace trackcosim::gpu::detail
