#pragma once
// The device a process's kernels run on: chosen once, before the first kernel, and named in the
// run's first lines and run.json, so that a run says where it ran and a CUDA build on a machine
// without a usable GPU stops at once with the reason instead of at its first allocation.

#include <string>

namespace trackcosim::gpu {

struct DeviceChoice {
  int index = -1;           ///< the CUDA device ordinal; -1 in the CPU build
  std::string description;  ///< e.g. "cuda device 0 of 1: NVIDIA H200, sm_90, 139.8 GiB" or "cpu: OpenMP, 2 threads"
};

/// CUDA build: makes device `local_rank` modulo the visible devices this process's device (one
/// rank per GPU when a node runs as many ranks as it has GPUs, as `srun --gpus-per-task=1` or
/// CUDA_VISIBLE_DEVICES arrange; more ranks share them round-robin) and describes it. Throws
/// std::runtime_error naming the CUDA error when no GPU can be used. CPU build: describes the
/// OpenMP backend and its threads.
DeviceChoice choose_device(int local_rank);

}  // namespace trackcosim::gpu
