// bench/device_bandwidth: the GPU's memory bandwidth, measured two ways, as the roof against
// which bench/ccp's bytes per contact-iteration are judged (bench/run_gpu.sh divides by it).
//
//   device_bandwidth [--mib M]   (M: MiB per buffer, default 2048, halved until two fit)
//
// cudaMemcpy device-to-device, and a grid-stride kernel copying doubles (what a solver pass
// can reach with plain loads and stores). Each is the median of 20 runs timed with CUDA events
// after 3 untimed ones; bytes are those read plus those written. Ends with one parseable line:
//   device_bandwidth name="<device>" copy_GBps=<x> kernel_GBps=<y>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "bench/bench_args.h"

namespace {

void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  std::fprintf(stderr, "device_bandwidth: %s: %s\n", what, cudaGetErrorString(status));
  std::exit(1);
}

__global__ void copy_doubles(const double* __restrict__ in, double* __restrict__ out, std::size_t n) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = in[i];
}

/// Median seconds of `runs` timed calls of `pass`, after `warmup` untimed ones.
template <class Pass>
double median_seconds(Pass pass, int warmup = 3, int runs = 20) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  for (int k = 0; k < warmup; ++k) pass();
  std::vector<double> seconds;
  for (int k = 0; k < runs; ++k) {
    check(cudaEventRecord(start), "cudaEventRecord");
    pass();
    check(cudaEventRecord(stop), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    seconds.push_back(1e-3 * ms);
  }
  check(cudaEventDestroy(start), "cudaEventDestroy");
  check(cudaEventDestroy(stop), "cudaEventDestroy");
  std::sort(seconds.begin(), seconds.end());
  return seconds[seconds.size() / 2];
}

}  // namespace

constexpr char kUsage[] =
    "usage: device_bandwidth [--mib M]   (M: MiB per buffer, default 2048, halved until two fit)\n"
    "The device's copy and kernel bandwidth (bench/device_bandwidth.cu).\n";

int main(int argc, char** argv) {
  trackcosim::bench::help_exits(argc, argv, kUsage);
  std::size_t mib = 2048;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--mib") == 0) mib = std::strtoull(argv[i + 1], nullptr, 10);

  int device_count = 0;
  check(cudaGetDeviceCount(&device_count), "no CUDA device (cudaGetDeviceCount)");
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");

  // Two buffers of `bytes` each, with room to spare for the context.
  std::size_t free_bytes = 0, total_bytes = 0;
  check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  std::size_t bytes = mib << 20;
  while (bytes > (std::size_t(1) << 20) && 2 * bytes + (std::size_t(256) << 20) > free_bytes) bytes /= 2;
  const std::size_t n = bytes / sizeof(double);
  bytes = n * sizeof(double);

  double *in = nullptr, *out = nullptr;
  check(cudaMalloc(&in, bytes), "cudaMalloc");
  check(cudaMalloc(&out, bytes), "cudaMalloc");
  check(cudaMemset(in, 0, bytes), "cudaMemset");
  check(cudaMemset(out, 0, bytes), "cudaMemset");

  // Enough resident blocks to fill every SM; the grid stride covers the rest.
  int blocks_per_sm = 0;
  const int threads = 256;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, copy_doubles, threads, 0), "occupancy");
  const int blocks = prop.multiProcessorCount * std::max(blocks_per_sm, 1);

  const double copy_s = median_seconds([&] { check(cudaMemcpy(out, in, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy"); });
  const double kernel_s = median_seconds([&] {
    copy_doubles<<<blocks, threads>>>(in, out, n);
    check(cudaGetLastError(), "copy_doubles launch");
  });
  check(cudaDeviceSynchronize(), "copy_doubles");
  check(cudaFree(in), "cudaFree");
  check(cudaFree(out), "cudaFree");

  const double copy_gbps = 2.0 * double(bytes) / copy_s / 1e9;  // read + written
  const double kernel_gbps = 2.0 * double(bytes) / kernel_s / 1e9;
  std::printf("# %s, %d SMs, %.1f GiB; %.0f MiB copied per run (x2 counted: read + written), median of 20\n",
              prop.name, prop.multiProcessorCount, double(total_bytes) / (1 << 30), double(bytes) / (1 << 20));
  std::printf("%-28s %9.3f ms %9.1f GB/s\n", "cudaMemcpy device-to-device", 1e3 * copy_s, copy_gbps);
  std::printf("%-28s %9.3f ms %9.1f GB/s  (%d blocks x %d threads)\n", "grid-stride double copy", 1e3 * kernel_s,
              kernel_gbps, blocks, threads);
  std::printf("device_bandwidth name=\"%s\" copy_GBps=%.1f kernel_GBps=%.1f\n", prop.name, copy_gbps, kernel_gbps);
  return 0;
}
