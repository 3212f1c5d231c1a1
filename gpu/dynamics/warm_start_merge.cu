// The warm-start store takes a neighbour's forwarded impulses on the device: the added entries
// are uploaded, the store's replaced ones dropped, and both sorted lists merged by key there
// (detail/warm_start_merge.h). Before, the whole store went to the host and back every step.

#include "gpu/dynamics/detail/warm_start_merge.h"

#include <algorithm>
#include <array>

#include <thrust/binary_search.h>

#include "gpu/dynamics/detail/index_ops.h"
#include "gpu/dynamics/detail/soa_view.h"
#include "gpu/memory/execution.h"
#include "gpu/memory/host_copy.h"

namespace trackcosim::gpu::detail {
namespace {

ContactKey key_of(const WarmStartImpulse& e) { return {e.gid_a, e.gid_b, e.shape_a, e.shape_b}; }

/// Sorted by key; of equal keys the last given is kept.
std::vector<WarmStartImpulse> sorted_unique(const std::vector<WarmStartImpulse>& entries) {
  std::vector<WarmStartImpulse> sorted = entries;
  const auto before = [](const WarmStartImpulse& l, const WarmStartImpulse& r) { return key_of(l) < key_of(r); };
  std::stable_sort(sorted.begin(), sorted.end(), before);
  std::vector<WarmStartImpulse> unique;
  for (std::size_t k = 0; k < sorted.size(); ++k)
    if (k + 1 == sorted.size() || before(sorted[k], sorted[k + 1])) unique.push_back(sorted[k]);
  return unique;
}

/// field <- (field ++ added)[source], the added values from the host.
void merge_field(thrust::device_vector<real>& field, const std::vector<real>& added,
                 const thrust::device_vector<std::uint32_t>& source) {
  thrust::device_vector<real> on_device;
  upload(on_device, added);
  gather_concatenated(field, on_device, source);
}

}  // namespace

void merge_warm_start(WarmStartStore& store, const std::vector<WarmStartImpulse>& entries, bool rolling) {
  if (entries.empty()) return;
  const std::vector<WarmStartImpulse> added = sorted_unique(entries);
  const std::size_t n_old = store.keys.size(), n_added = added.size();
  std::vector<ContactKey> keys(n_added);
  std::array<std::vector<real>, 6> values;  // impulse x y z, rolling x y z
  for (auto& v : values) v.resize(n_added);
  for (std::size_t k = 0; k < n_added; ++k) {
    keys[k] = key_of(added[k]);
    const Vec3 p = added[k].impulse_on_b, r = added[k].rolling_on_b;
    values[0][k] = p.x, values[1][k] = p.y, values[2][k] = p.z;
    values[3][k] = r.x, values[4][k] = r.y, values[5][k] = r.z;
  }
  thrust::device_vector<ContactKey> added_keys;
  upload(added_keys, keys);

  // A stored entry with an added entry's key is replaced by it.
  thrust::device_vector<std::uint8_t> replaced(n_old);
  thrust::binary_search(par(), added_keys.begin(), added_keys.end(), store.keys.begin(), store.keys.end(),
                        replaced.begin());
  const thrust::device_vector<std::uint32_t> source = merge_sorted(store.keys, replaced, added_keys);

  merge_field(store.impulse.x, values[0], source);
  merge_field(store.impulse.y, values[1], source);
  merge_field(store.impulse.z, values[2], source);
  if (!rolling) {
    store.rolling.resize(0);
    return;
  }
  // A store that held no rolling impulses (or not for every key) starts them at zero.
  if (store.rolling.x.size() != n_old) {
    store.rolling.resize(n_old);
    store.rolling.fill(0);
  }
  merge_field(store.rolling.x, values[3], source);
  merge_field(store.rolling.y, values[4], source);
  merge_field(store.rolling.z, values[5], source);
}

}  // namespace trackcosim::gpu::detail
