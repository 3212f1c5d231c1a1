#pragma once
// Index operations on device arrays that let a step take sparse changes from the host: flags
// set at listed places (a driver's few contacts or bodies near a rank's faces become the
// solver's dense masks), and arrays rebuilt from their old values and a few added ones (bodies
// joining a rank, forwarded warm starts). Only .cu files include this header.

#include <cstdint>

#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/for_each.h>
#include <thrust/gather.h>
#include <thrust/merge.h>
#include <thrust/iterator/counting_iterator.h>

#include "gpu/dynamics/detail/soa_view.h"
#include "math/host_device.h"
#include "gpu/memory/execution.h"

namespace trackcosim::gpu::detail {

/// flags[index[k]] = value for every k (the indices distinct, below flags.size()).
inline void mark(thrust::device_vector<std::uint8_t>& flags, const thrust::device_vector<std::uint32_t>& index,
                 std::uint8_t value) {
  std::uint8_t* f = raw(flags);
  const std::uint32_t* idx = raw(index);
  thrust::for_each(par(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(index.size()),
                   [=] TRACKCOSIM_HD(std::size_t k) { f[idx[k]] = value; });
}

/// field <- (field ++ added)[order]: each entry from the old values or, at old size + k, the
/// k-th added one; `added` is already on the device.
template <class T>
void gather_concatenated(thrust::device_vector<T>& field, const thrust::device_vector<T>& added,
                         const thrust::device_vector<std::uint32_t>& order) {
  thrust::device_vector<T> both(field.size() + added.size());
  thrust::copy(par(), field.begin(), field.end(), both.begin());
  thrust::copy(par(), added.begin(), added.end(), both.begin() + static_cast<std::ptrdiff_t>(field.size()));
  field.resize(order.size());
  thrust::gather(par(), order.begin(), order.end(), both.begin(), field.begin());
}

struct IsClear {
  TRACKCOSIM_HD bool operator()(std::uint8_t flag) const { return flag == 0; }
};

/// A sorted list after some entries leave and sorted new ones join (no key in both): `keys`
/// becomes the merged list and the result says where each entry comes from, old entry i as i,
/// added entry k as old size + k (for gather_concatenated). leaving[i] != 0: entry i leaves.
template <class Key>
thrust::device_vector<std::uint32_t> merge_sorted(thrust::device_vector<Key>& keys,
                                                  const thrust::device_vector<std::uint8_t>& leaving,
                                                  const thrust::device_vector<Key>& added) {
  const std::size_t n_old = keys.size();
  thrust::device_vector<std::uint32_t> stay(n_old);
  const auto first = thrust::counting_iterator<std::uint32_t>(0);
  stay.resize(static_cast<std::size_t>(
      thrust::copy_if(par(), first, first + static_cast<std::ptrdiff_t>(n_old), leaving.begin(), stay.begin(),
                      IsClear{}) -
      stay.begin()));
  thrust::device_vector<Key> stay_keys(stay.size());
  thrust::gather(par(), stay.begin(), stay.end(), keys.begin(), stay_keys.begin());
  const auto added_source = thrust::counting_iterator<std::uint32_t>(static_cast<std::uint32_t>(n_old));
  thrust::device_vector<std::uint32_t> source(stay.size() + added.size());
  keys.resize(source.size());
  thrust::merge_by_key(par(), stay_keys.begin(), stay_keys.end(), added.begin(), added.end(), stay.begin(),
                       added_source, keys.begin(), source.begin());
  return source;
}

}  // namespace trackcosim::gpu::detail
