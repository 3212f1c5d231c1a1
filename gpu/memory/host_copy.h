#pragma once
// Copies between host and device memory, counted (transfer_count.h). Every such copy in gpu/
// goes through one of these, so the count is the whole traffic: a step that needs no output
// should add a few scalars, never an array per body or per contact.
// Only .cu files include this header.

#include <cstddef>
#include <vector>

#include <thrust/copy.h>
#include <thrust/device_vector.h>

#include "gpu/memory/staging_buffer.h"
#include "gpu/memory/transfer_count.h"

namespace trackcosim::gpu::detail {

template <class T>
void upload(thrust::device_vector<T>& dst, const std::vector<T>& src) {
  count_to_device(src.size() * sizeof(T));
  dst.assign(src.begin(), src.end());
}

template <class T>
void download(const thrust::device_vector<T>& src, std::vector<T>& dst, std::size_t count) {
  count_to_host(count * sizeof(T));
  dst.resize(count);
  thrust::copy(src.begin(), src.begin() + static_cast<std::ptrdiff_t>(count), dst.begin());
}

template <class T>
void download(const thrust::device_vector<T>& src, std::vector<T>& dst) {
  download(src, dst, src.size());
}

template <class T>
std::vector<T> download(const thrust::device_vector<T>& src) {
  std::vector<T> out;
  download(src, out);
  return out;
}

/// Through a staging buffer (a message between ranks), resized to the source.
template <class T>
void download(const thrust::device_vector<T>& src, StagingBuffer<T>& dst) {
  count_to_host(src.size() * sizeof(T));
  dst.resize(src.size());
  thrust::copy(src.begin(), src.end(), dst.data());
}

template <class T>
void upload(thrust::device_vector<T>& dst, const StagingBuffer<T>& src) {
  count_to_device(src.size() * sizeof(T));
  dst.assign(src.data(), src.data() + src.size());
}

/// One element: a synchronisation and a tiny copy on a GPU, for single bodies and counts only.
template <class T>
T read_element(const thrust::device_vector<T>& v, std::size_t i) {
  count_to_host(sizeof(T));
  return v[i];
}

template <class T>
void write_element(thrust::device_vector<T>& v, std::size_t i, const T& value) {
  count_to_device(sizeof(T));
  v[i] = value;
}

}  // namespace trackcosim::gpu::detail
