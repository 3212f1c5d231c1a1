#pragma once
// What one time step of the one-rank system did. Its phases are the finer clock inside the
// terrain step's stages 3, 5 and 6 (terrain_node/distributed/terrain_step_stages.h holds the
// one list of stages that stats.csv and timing.csv use); bench/ccp prints them.

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "math/real.h"

namespace trackcosim::gpu {

enum class StepPhase : std::size_t {
  Collision,  // shapes to world, collision detection, gid -> body index
  Prepare,    // contact Jacobians, eta, stabilisation, warm start by contact key
  Solve,      // CCP iterations
  Integrate,  // semi-implicit Euler, quaternion update
  Count
};
inline constexpr std::size_t kStepPhaseCount = static_cast<std::size_t>(StepPhase::Count);
inline constexpr std::array<std::string_view, kStepPhaseCount> kStepPhaseNames{"collision", "prepare", "solve",
                                                                               "integrate"};

struct StepStats {
  std::uint64_t contacts = 0;
  std::uint32_t iterations = 0;
  std::uint32_t passes = 0;     ///< sweeps over the constraints: iterations plus APGD's rejected line-search trials
  real residual = 0;            ///< of the returned impulses (docs/ccp.md)
  real kinetic_energy = 0;      ///< after the step, dynamic bodies only
  real max_penetration = 0;     ///< largest overlap (>= 0) among this step's contacts, before solve
  std::array<double, kStepPhaseCount> phase_seconds{};
  std::vector<real> residual_history;  ///< per iteration, when SolverSettings::record_residuals
};

}  // namespace trackcosim::gpu
