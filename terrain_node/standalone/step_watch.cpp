#include "terrain_node/standalone/step_watch.h"

#include <algorithm>
#include <chrono>
#include <string>

#include "terrain_node/checkpoint/checkpoint_allowance.h"

namespace trackcosim::terrain {
namespace {

/// How many of its slowest step so far a rank waits before it gives up on its peers.
constexpr double kSlowestSteps = 10;

double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

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

StepWatch::Checkpointing::Checkpointing(StepWatch& watch, std::uint64_t bodies) : watch_(watch), start_(seconds_now()) {
  // Named after the last step done: the message says since when nothing has progressed.
  const bool started = watch_.step_ != comm::Watchdog::kNoNumber;
  watch_.dog_.beat(started ? "terrain step" : "the run's start", watch_.step_,
                   checkpoint_allowance(watch_.slowest_, watch_.slowest_checkpoint_, bodies));
}

StepWatch::Checkpointing::~Checkpointing() {
  watch_.slowest_checkpoint_ = std::max(watch_.slowest_checkpoint_, seconds_now() - start_);
  watch_.beat_after_step();
}

}  // namespace trackcosim::terrain
