#include "terrain_node/checkpoint/checkpoint_allowance.h"

#include <algorithm>

namespace trackcosim::terrain {
namespace {

/// A checkpoint may take this many of the slowest step or checkpoint so far.
constexpr double kSlowestTimes = 10;
/// A checkpoint record is at most this many bytes per body (docs/checkpoint-format.md: a body,
/// its spheres and its share of warm-start entries), written at no less than this pace (a
/// loaded parallel file system): the allowance of a first checkpoint, before any was timed.
constexpr double kCheckpointBytesPerBody = 1024;
constexpr double kSlowCheckpointBytesPerSecond = 10e6;

}  // namespace

double checkpoint_allowance(double slowest_step_seconds, double slowest_checkpoint_seconds, std::uint64_t bodies) {
  return std::max({kSlowestTimes * slowest_step_seconds, kSlowestTimes * slowest_checkpoint_seconds,
                   static_cast<double>(bodies) * kCheckpointBytesPerBody / kSlowCheckpointBytesPerSecond});
}

}  // namespace trackcosim::terrain
