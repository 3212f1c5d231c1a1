// Canonical order, per-body-pair contact reduction, and the kept contacts gathered in order.
//
// Sorting by (gid_a, gid_b, shape_a, shape_b) (canonical_order.cu) is what makes the list
// identical for any thread count and, later, any rank count: bins are processed in parallel in
// whatever order, but the keys are unique. It also groups each body pair's contacts for the
// reduction.
//
// Reduction (Heyn 2009, sec. 3.3): two sphere-set bodies pressed together produce many nearly
// redundant contacts that slow the iterative solver. The thesis keeps a random subset of 8; we
// keep a deterministic, spread-out one: the deepest contact, then repeatedly the contact whose
// midpoint is farthest from those already kept (farthest-point sampling), ties to the lowest
// key. A spread-out support resists tipping the way the full set does.

#include "gpu/collision/detail/contact_ordering.h"

#include <stdexcept>

#include <thrust/copy.h>
#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/gather.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>

#include "gpu/collision/detail/canonical_order.h"
#include "gpu/memory/execution.h"

namespace trackcosim::gpu::detail {
namespace {

struct SameBodyPair {
  TRACKCOSIM_HD bool operator()(const ContactKey& l, const ContactKey& r) const {
    return l.gid_a == r.gid_a && l.gid_b == r.gid_b;
  }
};

struct IsKept {
  TRACKCOSIM_HD bool operator()(std::uint8_t keep) const { return keep != 0; }
};

/// Farthest-point choice of `limit` contacts inside one over-full body-pair segment.
struct ChooseSpreadSubset {
  const ContactIndex* order;
  const ContactIndex* segment_start;
  const ContactIndex* segment_size;
  const real *distance, *ax, *ay, *az, *bx, *by, *bz;
  real* min_dist2;  // per sorted position: squared distance to the nearest kept contact
  std::uint8_t* keep;
  std::uint32_t limit;

  TRACKCOSIM_HD Vec3 midpoint(ContactIndex raw) const {
    return {real(0.5) * (ax[raw] + bx[raw]), real(0.5) * (ay[raw] + by[raw]), real(0.5) * (az[raw] + bz[raw])};
  }

  TRACKCOSIM_HD void operator()(std::size_t s) const {
    const ContactIndex first = segment_start[s], n = segment_size[s];
    if (n <= limit) return;
    ContactIndex chosen = first;
    for (ContactIndex p = first + 1; p < first + n; ++p)
      if (distance[order[p]] < distance[order[chosen]]) chosen = p;
    for (ContactIndex p = first; p < first + n; ++p) {
      keep[p] = 0;
      min_dist2[p] = real(1e300);
    }
    for (std::uint32_t picked = 0;; ++picked) {
      keep[chosen] = 1;
      if (picked + 1 == limit) break;
      const Vec3 c = midpoint(order[chosen]);
      ContactIndex next = first;
      real best = -1;
      for (ContactIndex p = first; p < first + n; ++p) {
        const Vec3 d = midpoint(order[p]) - c;
        const real d2 = dot(d, d);
        if (d2 < min_dist2[p]) min_dist2[p] = d2;
        if (!keep[p] && min_dist2[p] > best) {
          best = min_dist2[p];
          next = p;
        }
      }
      chosen = next;
    }
  }
};

template <class T>
void gather_kept(const thrust::device_vector<ContactIndex>& kept, const thrust::device_vector<T>& field,
                 thrust::device_vector<T>& out) {
  out.resize(kept.size());
  thrust::gather(par(), kept.begin(), kept.end(), field.begin(), out.begin());
}

void reduce_body_pairs(const DeviceContacts& raw, std::uint32_t limit, OrderingBuffers& b) {
  const std::size_t n = b.key.size();
  b.keep.assign(n, 1);
  if (limit == 0 || n == 0) return;
  b.segment_start.resize(n);
  b.segment_size.resize(n);
  const auto seg_end = thrust::reduce_by_key(par(), b.key.begin(), b.key.end(), thrust::constant_iterator<ContactIndex>(1),
                                             thrust::make_discard_iterator(), b.segment_size.begin(), SameBodyPair{});
  const std::size_t segments = seg_end.second - b.segment_size.begin();
  const ContactIndex largest = thrust::reduce(par(), b.segment_size.begin(), b.segment_size.begin() + segments,
                                              ContactIndex{0}, thrust::maximum<ContactIndex>());
  if (largest <= limit) return;  // the common case for a pure sphere terrain
  thrust::exclusive_scan(par(), b.segment_size.begin(), b.segment_size.begin() + segments, b.segment_start.begin());
  b.spread.resize(n);
  const auto ptr = [](const auto& v) { return thrust::raw_pointer_cast(v.data()); };
  thrust::for_each(par(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(segments),
                   ChooseSpreadSubset{ptr(b.order), ptr(b.segment_start), ptr(b.segment_size), ptr(raw.distance),
                                      ptr(raw.ax), ptr(raw.ay), ptr(raw.az), ptr(raw.bx), ptr(raw.by), ptr(raw.bz),
                                      thrust::raw_pointer_cast(b.spread.data()),
                                      thrust::raw_pointer_cast(b.keep.data()), limit});
}

}  // namespace

std::uint64_t order_and_reduce(DeviceContacts& raw, std::uint32_t max_per_pair, OrderingBuffers& b,
                               DeviceContacts& out, StageClock& clock) {
  const std::size_t n = raw.size();
  if (n >= std::size_t{1} << 32) throw std::length_error("collision: more than 2^32 contacts on one rank");
  clock.run(CollisionStage::CanonicalSort, [&] { sort_canonically(raw, b); });
  clock.run(CollisionStage::BodyPairReduction, [&] {
    reduce_body_pairs(raw, max_per_pair, b);
    b.kept.resize(n);
    const auto end = thrust::copy_if(par(), b.order.begin(), b.order.end(), b.keep.begin(), b.kept.begin(),
                                     IsKept{});
    b.kept.resize(end - b.kept.begin());
  });
  clock.run(CollisionStage::GatherKept, [&] {
    gather_kept(b.kept, raw.gid_a, out.gid_a);
    gather_kept(b.kept, raw.gid_b, out.gid_b);
    gather_kept(b.kept, raw.shape_a, out.shape_a);
    gather_kept(b.kept, raw.shape_b, out.shape_b);
    const auto from = raw.real_fields();
    const auto to = out.real_fields();
    for (std::size_t f = 0; f < from.size(); ++f) gather_kept(b.kept, *from[f], *to[f]);
  });
  return n;
}

}  // namespace trackcosim::gpu::detail
