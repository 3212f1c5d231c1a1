// Page-locked host memory in the CUDA build, plain host memory otherwise (staging_buffer.h).

#include "gpu/memory/staging_buffer.h"

#include <cstdlib>
#include <new>

#include <thrust/execution_policy.h>

#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
#include <cuda_runtime.h>
#endif

namespace trackcosim::gpu::detail {

void* allocate_staging(std::size_t bytes) {
  if (bytes == 0) return nullptr;
#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
  void* block = nullptr;
  if (cudaMallocHost(&block, bytes) != cudaSuccess) {
    cudaGetLastError();  // clear it, so the caller's next call is not blamed
    throw std::bad_alloc();
  }
  return block;
#else
  void* block = std::malloc(bytes);
  if (block == nullptr) throw std::bad_alloc();
  return block;
#endif
}

void free_staging(void* block) {
  if (block == nullptr) return;
#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
  cudaFreeHost(block);
#else
  std::free(block);
#endif
}

}  // namespace trackcosim::gpu::detail
