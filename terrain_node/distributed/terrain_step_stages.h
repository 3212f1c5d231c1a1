#pragma once
// The stages of one terrain step on one rank, listed once: DistributedTerrain::step() runs them
// in this order, its timers measure them, stats.csv and the co-simulation's timing.csv have one
// column per stage with these names, and docs/architecture.md ("The terrain step") describes
// them. gpu::StepPhase is the finer clock of the rigid-body system inside stages 3, 5 and 6.

#include <array>
#include <chrono>
#include <cstddef>
#include <string_view>

namespace trackcosim::terrain {

enum class TerrainStage : std::size_t {
  Ghosts,     // 1. classify owned bodies (migrating those that crossed a cut), refresh the ghosts
  Proxies,    // 2. move the shoe proxies to the shoe states last received from the vehicle
  Collision,  // 3. collision detection over owned + ghost + fixed + proxy shapes
  Ownership,  // 4. each contact solved by the owner of its midpoint (the contacts near the faces planned)
  Solve,      // 5. CCP: prepare (Jacobians, warm start, ghosts' counts) and iterate, exchanging every iteration
  Integrate,  // 6. integrate the held bodies; hand warm-start impulses to neighbours
  Loads,      // 7. add the contact impulses on each shoe proxy (reduced once per coupling step)
  Count
};

inline constexpr std::size_t kTerrainStageCount = static_cast<std::size_t>(TerrainStage::Count);
inline constexpr std::array<std::string_view, kTerrainStageCount> kTerrainStageNames{
    "ghosts", "proxies", "collision", "ownership", "solve", "integrate", "loads"};

/// Seconds per stage of the last step (or summed over several).
using StageSeconds = std::array<double, kTerrainStageCount>;

inline double& at(StageSeconds& seconds, TerrainStage stage) { return seconds[static_cast<std::size_t>(stage)]; }

/// One step's clock: each stage's work runs under it, the PhaseClock idiom of
/// gpu/dynamics/rigid_body_system.cu. A stage may run in several pieces; their times add up.
class TerrainStageClock {
 public:
  /// Starts the step: every stage at zero.
  explicit TerrainStageClock(StageSeconds& seconds) : seconds_(seconds) { seconds_ = {}; }

  /// Runs `work`, charges its wall seconds to `stage` and returns them.
  template <class Work>
  double run(TerrainStage stage, Work&& work) {
    const auto start = std::chrono::steady_clock::now();
    work();
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    at(seconds_, stage) += elapsed;
    return elapsed;
  }
  /// Charges work timed elsewhere (the proxies, moved between two steps).
  void charge(TerrainStage stage, double seconds) { at(seconds_, stage) += seconds; }

 private:
  StageSeconds& seconds_;
};

}  // namespace trackcosim::terrain
