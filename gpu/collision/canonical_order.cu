// Sorting contacts by (gid_a, gid_b, shape_a, shape_b), one way per backend. Keys are unique,
// so both give the same order, and neither depends on the thread count.
//
// CPU: two levels. One comparison sort on the 24-byte key would move 28 bytes per element per
// merge pass, so we radix/merge-sort the 64-bit gid_a alone (stably: equal gid_a keep their
// generation order), then finish each run of equal gid_a, a handful of contacts for a grain and
// a few hundred for a track shoe, with a heap sort on the rest of the key.
//
// CUDA: three stable radix sorts of 64-bit keys, least significant first (shape_a:shape_b, then
// gid_b, then gid_a), each carrying the permutation. The heap sort of the CPU path runs a whole
// run on one GPU thread: the container floor, gid_a of every grain resting on it, is a run of
// 10^4 contacts at 10^6 grains, and its one thread took 0.1 s of a 0.14 s step on an H200.

#include "gpu/collision/detail/canonical_order.h"
#include "gpu/memory/execution.h"

#include <thrust/for_each.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

namespace trackcosim::gpu::detail {
namespace {

struct RawKeys {
  const GlobalId *gid_a, *gid_b;
  const ShapeIndex *shape_a, *shape_b;

  TRACKCOSIM_HD ContactKey operator()(ContactIndex i) const { return {gid_a[i], gid_b[i], shape_a[i], shape_b[i]}; }
};

#if THRUST_DEVICE_SYSTEM != THRUST_DEVICE_SYSTEM_CUDA  // the CPU's two-level sort

struct GidAOf {
  const GlobalId* gid_a;
  TRACKCOSIM_HD GlobalId operator()(ContactIndex i) const { return gid_a[i]; }
};

/// In-place heap sort of one run of equal gid_a: O(n log n) even for a body with thousands of
/// contacts, no scratch memory, and deterministic because the keys are unique.
struct SortRun {
  RawKeys keys;
  ContactIndex* order;
  const ContactIndex* run_start;
  const ContactIndex* run_size;

  /// Order of two contacts with the same gid_a.
  TRACKCOSIM_HD bool less_within_body(ContactIndex l, ContactIndex r) const {
    if (keys.gid_b[l] != keys.gid_b[r]) return keys.gid_b[l] < keys.gid_b[r];
    if (keys.shape_a[l] != keys.shape_a[r]) return keys.shape_a[l] < keys.shape_a[r];
    return keys.shape_b[l] < keys.shape_b[r];
  }

  TRACKCOSIM_HD void sift_down(ContactIndex* a, ContactIndex root, ContactIndex n) const {
    for (ContactIndex child; (child = 2 * root + 1) < n; root = child) {
      if (child + 1 < n && less_within_body(a[child], a[child + 1])) ++child;
      if (!less_within_body(a[root], a[child])) return;
      const ContactIndex t = a[root];
      a[root] = a[child];
      a[child] = t;
    }
  }

  TRACKCOSIM_HD void operator()(std::size_t run) const {
    const ContactIndex n = run_size[run];
    if (n < 2) return;
    ContactIndex* a = order + run_start[run];
    for (ContactIndex i = n / 2; i-- > 0;) sift_down(a, i, n);
    for (ContactIndex end = n - 1; end > 0; --end) {
      const ContactIndex t = a[0];
      a[0] = a[end];
      a[end] = t;
      sift_down(a, 0, end);
    }
  }
};

#endif

}  // namespace

namespace {

#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA

/// b.order (the identity on entry) becomes the sorted permutation: least significant key first.
void sort_order(const RawKeys& keys, OrderingBuffers& b) {
  const ShapeIndex *sa = keys.shape_a, *sb = keys.shape_b;
  const GlobalId *ga = keys.gid_a, *gb = keys.gid_b;
  const auto sort_by = [&](auto key_of) {
    thrust::transform(par(), b.order.begin(), b.order.end(), b.body_key.begin(), key_of);
    thrust::stable_sort_by_key(par(), b.body_key.begin(), b.body_key.end(), b.order.begin());
  };
  sort_by([=] TRACKCOSIM_HD(ContactIndex i) -> GlobalId { return (GlobalId{sa[i]} << 32) | sb[i]; });
  sort_by([=] TRACKCOSIM_HD(ContactIndex i) -> GlobalId { return gb[i]; });
  sort_by([=] TRACKCOSIM_HD(ContactIndex i) -> GlobalId { return ga[i]; });
}

#else

/// b.order (the identity on entry) becomes the sorted permutation: by gid_a, then each run.
void sort_order(const RawKeys& keys, OrderingBuffers& b) {
  const auto ptr = [](const auto& v) { return thrust::raw_pointer_cast(v.data()); };
  thrust::transform(par(), b.order.begin(), b.order.end(), b.body_key.begin(), GidAOf{keys.gid_a});
  thrust::stable_sort_by_key(par(), b.body_key.begin(), b.body_key.end(), b.order.begin());

  b.segment_size.resize(b.order.size());
  const auto runs_end = thrust::reduce_by_key(par(), b.body_key.begin(), b.body_key.end(),
                                              thrust::constant_iterator<ContactIndex>(1),
                                              thrust::make_discard_iterator(), b.segment_size.begin());
  const std::size_t runs = runs_end.second - b.segment_size.begin();
  b.segment_start.resize(runs);
  thrust::exclusive_scan(par(), b.segment_size.begin(), b.segment_size.begin() + runs, b.segment_start.begin());
  thrust::for_each(par(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(runs),
                   SortRun{keys, thrust::raw_pointer_cast(b.order.data()), ptr(b.segment_start), ptr(b.segment_size)});
}

#endif

}  // namespace

void sort_canonically(const DeviceContacts& raw, OrderingBuffers& b) {
  const std::size_t n = raw.size();
  const auto ptr = [](const auto& v) { return thrust::raw_pointer_cast(v.data()); };
  const RawKeys keys{ptr(raw.gid_a), ptr(raw.gid_b), ptr(raw.shape_a), ptr(raw.shape_b)};
  b.order.resize(n);
  thrust::sequence(par(), b.order.begin(), b.order.end());
  b.body_key.resize(n);
  sort_order(keys, b);
  b.key.resize(n);
  thrust::transform(par(), b.order.begin(), b.order.end(), b.key.begin(), keys);
}

}  // namespace trackcosim::gpu::detail
