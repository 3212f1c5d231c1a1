#pragma once
// Wall time per collision stage (and, with the same clock, per step phase). On the GPU a
// stage's kernels are waited for before the clock stops, so each stage is charged its own time
// (Thrust algorithms mostly synchronise already).
// Only .cu files include this header.

#include <array>
#include <chrono>

#include "gpu/collision/collision_stage.h"

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#endif

namespace trackcosim::gpu::detail {

/// Wall time per entry of a stage enum (collision stages, step phases).
template <class Stage, std::size_t kCount>
class EnumClock {
 public:
  explicit EnumClock(std::array<double, kCount>& seconds) : seconds_(seconds) {}

  template <class Work>
  void run(Stage stage, Work&& work) {
    const auto start = std::chrono::steady_clock::now();
    work();
#if defined(__CUDACC__)
    cudaDeviceSynchronize();
#endif
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    seconds_[static_cast<std::size_t>(stage)] += elapsed.count();
  }

 private:
  std::array<double, kCount>& seconds_;
};

using StageClock = EnumClock<CollisionStage, kCollisionStageCount>;

}  // namespace trackcosim::gpu::detail
