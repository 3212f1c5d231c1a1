#pragma once
// The standalone run's last deadline against a lost peer rank. A rank whose peer is gone (its
// node crashed, or the network to it was cut) waits for it inside the next step's halo exchange
// or reduction, and TCP tells it nothing for many minutes: a node that is gone sends no reset.
// The watchdog (comm/watchdog.h) ends such a rank with exit status 3, and the launcher (mpirun,
// srun --kill-on-bad-exit=1) ends the job, when the rank has finished no step for the timeout,
// or for 10 times its slowest step so far where that is longer (a step of a large bed may take
// long; its outputs, snapshots and statistics, must fit in that too). The first step may take 10
// times the timeout: the run's start (first touch of memory, a restart's redistribution).
// A checkpoint is watched too (a peer lost while every rank waits in the collective write would
// otherwise hang the job) with its allowance beyond the timeout (checkpoint/checkpoint_allowance.h).

#include <cstdint>

#include "comm/watchdog.h"

namespace trackcosim::terrain {

class StepWatch {
 public:
  /// `rank` names the rank in the message; timeout_seconds <= 0 watches nothing.
  StepWatch(int rank, double timeout_seconds);

  /// Step `step` has just ended; it took `seconds` (the step itself, not its outputs). The first
  /// step of the run does not count towards the slowest: it pays for the start (first touch).
  void stepped(std::uint64_t step, double seconds);
  /// The steps are over; the run's end (final statistics, measuring the bed) may take as long as
  /// a first step.
  void ending();

  /// While it lives, a checkpoint of `bodies` bodies is being written: the limit grows by the
  /// checkpoint's allowance; then the next step is due as after the last one.
  class Checkpointing {
   public:
    Checkpointing(StepWatch& watch, std::uint64_t bodies);
    ~Checkpointing();
    Checkpointing(const Checkpointing&) = delete;
    Checkpointing& operator=(const Checkpointing&) = delete;

   private:
    StepWatch& watch_;
    double start_;
  };

 private:
  void beat_after_step();

  comm::Watchdog dog_;
  double timeout_;
  double slowest_ = 0;
  double slowest_checkpoint_ = 0;
  std::uint64_t step_ = comm::Watchdog::kNoNumber;
};

}  // namespace trackcosim::terrain
