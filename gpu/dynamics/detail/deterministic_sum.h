#pragma once
// Sums that do not depend on the thread count. Thrust's reduce splits work by the number of
// threads, so its floating-point result changes with OMP_NUM_THREADS. Here work is split into
// fixed chunks of kChunk items whatever the hardware; each chunk is summed in index order and
// the chunk partials are added on the host in chunk order. The same chunking drives the solver
// passes, so their per-contact sums (residual, APGD line-search terms) come for free.
// Only .cu files include this header.

#include <cstddef>
#include <vector>

#include <thrust/device_vector.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

#include "gpu/dynamics/detail/soa_view.h"
#include "gpu/math/host_device.h"

namespace trackcosim::gpu::detail {

/// Items per chunk: large enough that a chunk's partial costs nothing next to its work, small
/// enough that 10^4 contacts still make work for every core.
inline constexpr std::size_t kChunk = 512;

/// Below this many chunks a pass runs on the calling thread (CPU build only).
inline constexpr std::size_t kMinParallelChunks = 8;

inline std::size_t chunk_count(std::size_t n) { return (n + kChunk - 1) / kChunk; }

/// Up to six running sums carried by one chunk.
inline constexpr int kSumSlots = 6;
struct ChunkSums {
  real s[kSumSlots];
};

/// Calls work(first, last, ChunkSums& partial) once per chunk, in parallel, and returns the chunk
/// partials added in chunk order. `work` loops over [first, last) itself, in order.
template <class Work>
ChunkSums for_each_chunk(std::size_t n, Work work, thrust::device_vector<ChunkSums>& partials) {
  const std::size_t chunks = chunk_count(n);
#if THRUST_DEVICE_SYSTEM != THRUST_DEVICE_SYSTEM_CUDA
  // A few chunks (a pendulum, a small pile): run them on this thread, in the same chunks and
  // order, so the result is the same. Waking the thread team and copying the partials back
  // costs more than the work (a 2-thread pendulum ran 3x slower than a 1-thread one).
  if (chunks < kMinParallelChunks) {
    ChunkSums total{};
    for (std::size_t c = 0; c < chunks; ++c) {
      ChunkSums partial{};
      const std::size_t first = c * kChunk;
      work(first, first + kChunk < n ? first + kChunk : n, partial);
      for (int k = 0; k < kSumSlots; ++k) total.s[k] += partial.s[k];
    }
    return total;
  }
#endif
  partials.resize(chunks);
  ChunkSums* out = raw(partials);
  thrust::for_each(thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(chunks),
                   [=] TRACKCOSIM_HD(std::size_t c) {
                     ChunkSums partial{};
                     const std::size_t first = c * kChunk;
                     const std::size_t last = first + kChunk < n ? first + kChunk : n;
                     work(first, last, partial);
                     out[c] = partial;
                   });
  std::vector<ChunkSums> host(chunks);
  thrust::copy(partials.begin(), partials.end(), host.begin());
  ChunkSums total{};
  for (const ChunkSums& p : host)
    for (int k = 0; k < kSumSlots; ++k) total.s[k] += p.s[k];
  return total;
}

}  // namespace trackcosim::gpu::detail
