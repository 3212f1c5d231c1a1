#pragma once
// What a driver hears while a solve runs: one call on the host after every solver iteration.
//
// A co-simulation's terrain must show its peers that it is alive while it works: its leader
// sends the vehicle working frames, every rank beats its watchdog (docs/protocol.md,
// "Timeouts"). Heard only between terrain steps, one step had to fit in the timeout, and on a
// loaded host a heavy bed's 200-iteration step did not (the M113's steps took up to 44 s against
// its 60 s). An iteration takes milliseconds, so hearing from each one bounds the silence by the
// work of one iteration instead. The call changes nothing the solver computes.
// (Plain C++: this header is also compiled as CUDA C++17.)

#include <cstdint>

namespace trackcosim::gpu {

class SolverProgress {
 public:
  virtual ~SolverProgress() = default;
  /// Iteration `iteration` (from 0) of the current solve is done. May throw (a lost peer): the
  /// solve then ends with that exception, and the system must not be stepped again.
  virtual void iteration_done(std::uint32_t iteration) = 0;
};

}  // namespace trackcosim::gpu
