#pragma once
// Passes over items (contacts, rows, bodies) with sums that do not depend on the thread count,
// the launch or the rank count. Thrust's reduce splits work by the number of threads, so its
// floating-point result changes with OMP_NUM_THREADS; here every sum is exact (math/exact_sum.h),
// so no split of the items, by chunks, blocks or MPI ranks, changes a bit of it. The passes are
// cut in two shapes, one per backend:
//
// - CPU (OpenMP): fixed chunks of kChunk items; a thread walks a chunk in index order and the
//   chunk partials are added on the calling thread in chunk order, read where they are (the
//   OpenMP device system's memory is this host's). Chunks suit two to a few dozen cores.
// - CUDA: one thread per item. Items are grouped in blocks of kBlock; a block adds its items'
//   terms by a fixed pairwise tree in shared memory, and one last block adds the block partials
//   (each of its threads walks a fixed stride of them, then the same tree). Only the scalar
//   total crosses to the host, and only when the caller asks for it.
//
// The terms themselves may still differ between the CPU and CUDA builds (their arithmetic is
// compiled apart); for a given build the sums are the same for every run, thread count and
// rank count.
// Only .cu files include this header.

#include <cstddef>
#include <stdexcept>
#include <string>

#include <thrust/device_vector.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

#include "gpu/dynamics/detail/soa_view.h"
#include "math/exact_sum.h"
#include "math/host_device.h"
#include "gpu/memory/execution.h"
#include "gpu/memory/host_copy.h"

namespace trackcosim::gpu::detail {

/// Items per chunk (CPU): large enough that a chunk's partial costs nothing next to its work,
/// small enough that 10^4 contacts still make work for every core.
inline constexpr std::size_t kChunk = 512;

/// Below this many chunks a pass runs on the calling thread (CPU build only).
inline constexpr std::size_t kMinParallelChunks = 8;

/// Threads per block (CUDA): one item each.
inline constexpr unsigned kBlock = 256;

inline std::size_t chunk_count(std::size_t n) { return (n + kChunk - 1) / kChunk; }

/// Up to two exact running sums carried by one pass (APGD's step needs two, every other pass
/// one). 112 bytes: a CUDA block's 256 of them fit the 48 kB of static shared memory.
inline constexpr int kSumSlots = 2;
struct ChunkSums {
  ExactSum s[kSumSlots];
};
static_assert(sizeof(ChunkSums) * kBlock <= 48 * 1024);

#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA

inline void check_launch(const char* what) {
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

/// partial[0 .. kBlock) -> partial[0], pairwise with a fixed shape.
__device__ inline void block_tree_sum(ChunkSums* partial) {
  for (unsigned stride = kBlock / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      for (int k = 0; k < kSumSlots; ++k) partial[threadIdx.x].s[k] += partial[threadIdx.x + stride].s[k];
    __syncthreads();
  }
}

template <class Work>
__global__ void __launch_bounds__(kBlock) sum_items_kernel(std::size_t n, Work work, ChunkSums* block_sums) {
  __shared__ ChunkSums partial[kBlock];
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * kBlock + threadIdx.x;
  ChunkSums mine{};
  if (i < n) work(i, i + 1, mine);
  partial[threadIdx.x] = mine;
  __syncthreads();
  block_tree_sum(partial);
  if (threadIdx.x == 0) block_sums[blockIdx.x] = partial[0];
}

/// One block: thread t adds block sums t, t + kBlock, ... in order, then the tree. (A template
/// only so that every file including this header may define it.)
template <class Sums>
__global__ void __launch_bounds__(kBlock) sum_block_sums_kernel(std::size_t blocks, Sums* sums) {
  __shared__ Sums partial[kBlock];
  Sums mine{};
  for (std::size_t b = threadIdx.x; b < blocks; b += kBlock)
    for (int k = 0; k < kSumSlots; ++k) mine.s[k] += sums[b].s[k];
  partial[threadIdx.x] = mine;
  __syncthreads();
  block_tree_sum(partial);
  if (threadIdx.x == 0) sums[blocks] = partial[0];
}

template <class Work>
__global__ void __launch_bounds__(kBlock) each_item_kernel(std::size_t n, Work work) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * kBlock + threadIdx.x;
  ChunkSums unused;
  if (i < n) work(i, i + 1, unused);
}

inline unsigned block_count(std::size_t n) { return static_cast<unsigned>((n + kBlock - 1) / kBlock); }

#else

/// End of chunk c of [0, n).
inline std::size_t chunk_end(std::size_t c, std::size_t n) {
  return (c + 1) * kChunk < n ? (c + 1) * kChunk : n;
}

inline void add_into(ChunkSums& total, const ChunkSums& part) {
  for (int k = 0; k < kSumSlots; ++k) total.s[k] += part.s[k];
}

/// A few chunks (a pendulum, a small pile) run on the calling thread, in the same chunks and
/// order, so the result is the same. Waking the thread team and copying the partials back costs
/// more than the work (a 2-thread pendulum ran 3x slower than a 1-thread one).
template <class Work>
ChunkSums run_chunks_here(std::size_t n, Work& work) {
  ChunkSums total{};
  for (std::size_t c = 0; c < chunk_count(n); ++c) {
    ChunkSums partial{};
    work(c * kChunk, chunk_end(c, n), partial);
    add_into(total, partial);
  }
  return total;
}

#endif

/// Calls work(first, last, ChunkSums& partial) over [0, n) in parallel and returns the sums of
/// all partials, added in the fixed shape of this backend. `work` loops over [first, last)
/// itself, in order (one item per call on a GPU).
template <class Work>
ChunkSums for_each_chunk(std::size_t n, Work work, thrust::device_vector<ChunkSums>& partials) {
#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
  if (n == 0) return ChunkSums{};
  const unsigned blocks = block_count(n);
  partials.resize(blocks + 1);  // the block sums, then the total
  sum_items_kernel<<<blocks, kBlock>>>(n, work, raw(partials));
  check_launch("solver pass");
  sum_block_sums_kernel<ChunkSums><<<1, kBlock>>>(blocks, raw(partials));
  check_launch("solver pass total");
  return read_element(partials, blocks);
#else
  const std::size_t chunks = chunk_count(n);
  if (chunks < kMinParallelChunks) return run_chunks_here(n, work);
  partials.resize(chunks);
  ChunkSums* out = raw(partials);
  thrust::for_each(par(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(chunks),
                   [=] TRACKCOSIM_HD(std::size_t c) {
                     ChunkSums partial{};
                     work(c * kChunk, chunk_end(c, n), partial);
                     out[c] = partial;
                   });
  // 112 bytes a chunk: read in place rather than copied (and counted) as a transfer.
  ChunkSums total{};
  for (std::size_t c = 0; c < chunks; ++c) add_into(total, out[c]);
  return total;
#endif
}

/// The same pass when nobody reads its sums: no reduction, nothing copied back, and on a GPU
/// nothing to wait for.
template <class Work>
void for_each_item(std::size_t n, Work work) {
#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
  if (n == 0) return;
  each_item_kernel<<<block_count(n), kBlock>>>(n, work);
  check_launch("solver pass");
#else
  const std::size_t chunks = chunk_count(n);
  if (chunks < kMinParallelChunks) {
    run_chunks_here(n, work);
    return;
  }
  thrust::for_each(par(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(chunks),
                   [=] TRACKCOSIM_HD(std::size_t c) {
                     ChunkSums unused{};
                     work(c * kChunk, chunk_end(c, n), unused);
                   });
#endif
}

}  // namespace trackcosim::gpu::detail
