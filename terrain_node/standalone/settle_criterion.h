#pragma once
// When a standalone run stops (docs/terrain-config.md, "settle"): at end_time without a settle
// section; with one, at the first check where the bed's rms speed sqrt(2 E_kin / M) is below
// settle.rms_speed, or at the time cap. Checks fall on steps that are multiples of
// settle.check_interval (absolute step numbers, so a restarted run checks at the same steps) at
// or after settle.min_time, and use the exact global kinetic energy, so every rank count stops
// at the same step.

#include <cstdint>

#include "terrain_node/config/terrain_config.h"
#include "terrain_node/output/settle_statistics.h"

namespace trackcosim::terrain {

enum class StopReason { EndTime, Threshold, TimeCap };

inline const char* stop_reason_name(StopReason r) {
  return r == StopReason::Threshold ? "threshold" : r == StopReason::TimeCap ? "time_cap" : "end_time";
}

class SettleCriterion {
 public:
  /// `dynamic_mass`: the total mass of the dynamic bodies (DistributedTerrain::dynamic_totals).
  SettleCriterion(const SettleSettings& settings, double dynamic_mass)
      : settings_(settings), mass_(dynamic_mass) {}

  /// Whether the step just made is a check (the caller then needs the global kinetic energy).
  bool due(std::uint64_t step, double time) const {
    // A whisker below min_time: 0.1 s after 100 steps of 1 ms is 0.09999999999999991.
    return settings_.enabled && step % settings_.check_interval == 0 && time >= settings_.min_time - 1e-12;
  }
  bool settled(double kinetic_energy) const { return rms_speed(kinetic_energy, mass_) < settings_.rms_speed; }
  /// Why a run that made all its steps stopped.
  StopReason at_last_step() const { return settings_.enabled ? StopReason::TimeCap : StopReason::EndTime; }

 private:
  SettleSettings settings_;
  double mass_;
};

}  // namespace trackcosim::terrain
