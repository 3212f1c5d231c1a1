#pragma once
// The execution policy every Thrust call in gpu/ runs under: par().
//
// CPU build: Thrust's OpenMP device system, exactly as with no policy.
// CUDA build: kernels are queued on the default stream without waiting for them (par_nosync:
// an algorithm that returns a value still waits, and copies to the host wait for the stream),
// and the temporary storage of sorts, scans and reductions comes from a cache that keeps freed
// blocks for reuse. Without the cache every such call pays a cudaMalloc and a cudaFree, and
// cudaFree waits for the whole device: dozens of them per step.
// Only .cu files include this header.

#include <cstddef>

#include <thrust/execution_policy.h>

#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
#include <thrust/system/cuda/execution_policy.h>
#endif

namespace trackcosim::gpu::detail {

#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA

/// Device blocks handed out by size class (powers of two from 256 B) and kept when returned.
/// Stateless: the cache is one per process (execution.cu), and its blocks are never given back
/// to the driver (the working set of a terrain step is the same every step).
class CachedTemporaryAllocator {
 public:
  using value_type = char;
  char* allocate(std::ptrdiff_t bytes);
  void deallocate(char* block, std::size_t bytes);
};

inline CachedTemporaryAllocator& cached_temporary_allocator() {
  static CachedTemporaryAllocator allocator;
  return allocator;
}

inline auto par() { return thrust::cuda::par_nosync(cached_temporary_allocator()); }

#else

inline auto par() { return thrust::device; }

#endif

}  // namespace trackcosim::gpu::detail
