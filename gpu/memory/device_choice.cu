#include "gpu/memory/device_choice.h"

#include <thrust/execution_policy.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
#include <cuda_runtime.h>
#else
#include <omp.h>
#endif

namespace trackcosim::gpu {

#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA

namespace {

[[noreturn]] void no_gpu(const std::string& what, cudaError_t error) {
  throw std::runtime_error("this program was built for CUDA (TRACKCOSIM_CUDA=ON) and " + what + ": " +
                           cudaGetErrorString(error) +
                           " (run it on a GPU node, or use the CPU build; docs/gpu.md)");
}

}  // namespace

DeviceChoice choose_device(int local_rank) {
  int count = 0;
  if (const cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess) no_gpu("finds no usable GPU", e);
  if (count == 0) no_gpu("finds no GPU", cudaErrorNoDevice);
  DeviceChoice choice;
  choice.index = (local_rank < 0 ? 0 : local_rank) % count;
  if (const cudaError_t e = cudaSetDevice(choice.index); e != cudaSuccess)
    no_gpu("cannot use device " + std::to_string(choice.index), e);
  cudaDeviceProp p{};
  if (const cudaError_t e = cudaGetDeviceProperties(&p, choice.index); e != cudaSuccess)
    no_gpu("cannot read device " + std::to_string(choice.index), e);
  char text[256];
  std::snprintf(text, sizeof text, "cuda device %d of %d: %s, sm_%d%d, %.1f GiB", choice.index, count, p.name, p.major,
                p.minor, static_cast<double>(p.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0));
  choice.description = text;
  return choice;
}

#else

DeviceChoice choose_device(int) {
  DeviceChoice choice;
  const int threads = omp_get_max_threads();
  choice.description = "cpu: OpenMP, " + std::to_string(threads) + (threads == 1 ? " thread" : " threads");
  return choice;
}

#endif

}  // namespace trackcosim::gpu
