#include "terrain_node/standalone/step_watch.h"

#include <algorithm>
#include <string>

namespace trackcosim::terrain {
namespace {

/// How many of its slowest step so far a rank waits before it gives up on its peers.
constexpr double kSlowestSteps = 10;

}  // namespace

StepWatch::StepWatch(int rank, double timeout_seconds)
    : dog_("terrain_node rank " + std::to_string(rank), timeout_seconds), timeout_(timeout_seconds) {
  dog_.beat("the run's start", comm::Watchdog::kNoNumber, (kSlowestSteps - 1) * timeout_);
}

void StepWatch::stepped(std::uint64_t step, double seconds) {
  if (step_ != comm::Watchdog::kNoNumber) slowest_ = std::max(slowest_, seconds);
  step_ = step;
  beat_after_step();
}

void StepWatch::beat_after_step() {
  if (step_ == comm::Watchdog::kNoNumber) {
    dog_.beat("the run's start", comm::Watchdog::kNoNumber, (kSlowestSteps - 1) * timeout_);
    return;
  }
  dog_.beat("terrain step", step_, std::max(0.0, kSlowestSteps * slowest_ - timeout_));
}

void StepWatch::ending() {
  dog_.beat("the last step", comm::Watchdog::kNoNumber, (kSlowestSteps - 1) * timeout_);
}

}  // namespace trackcosim::terrain
