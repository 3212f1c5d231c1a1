// The cache behind par()'s temporary storage (execution.h). CUDA build only; the CPU build
// compiles this file to nothing.

#include "gpu/memory/execution.h"

#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA

#include <cuda_runtime.h>

#include <map>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>

namespace trackcosim::gpu::detail {
namespace {

struct Cache {
  std::mutex mutex;
  std::multimap<std::size_t, char*> free_blocks;    ///< size class -> block
  std::unordered_map<char*, std::size_t> in_use;    ///< block -> size class
};

Cache& cache() {
  static Cache* c = new Cache;  // never destroyed: blocks outlive static destruction order
  return *c;
}

std::size_t size_class(std::size_t bytes) {
  std::size_t size = 256;
  while (size < bytes) size *= 2;
  return size;
}

}  // namespace

char* CachedTemporaryAllocator::allocate(std::ptrdiff_t bytes) {
  const std::size_t size = size_class(static_cast<std::size_t>(bytes));
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  auto it = c.free_blocks.find(size);
  char* block = nullptr;
  if (it != c.free_blocks.end()) {
    block = it->second;
    c.free_blocks.erase(it);
  } else if (cudaMalloc(&block, size) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky-free error so the caller's next call is not blamed
    throw std::bad_alloc();
  }
  c.in_use[block] = size;
  return block;
}

void CachedTemporaryAllocator::deallocate(char* block, std::size_t) {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  const auto it = c.in_use.find(block);
  if (it == c.in_use.end()) return;
  c.free_blocks.emplace(it->second, block);
  c.in_use.erase(it);
}

}  // namespace trackcosim::gpu::detail

#endif
