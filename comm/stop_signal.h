#pragma once
// The signal a batch system sends before a job's time limit, caught so that a run can end at a
// step boundary with a checkpoint instead of being killed mid-step. Slurm sends it with
// `#SBATCH --signal=USR1@120` (USR1 to every task, 120 s before the limit); SIGTERM, which Slurm
// sends at the limit itself and on scancel, and SIGINT (Ctrl-C) are caught the same way. The
// handler only sets a flag. A wait on a peer that may never answer can be ended by it too
// (deadline.h, StopEndsWaits).
//
// Ranks catch the signal at slightly different times, so a distributed run asks
// raised_anywhere() (one small allreduce) once per step, and every rank stops at the same step.

namespace trackcosim::comm {

class RankGroup;  // stop_signal_anywhere.cpp: this header stays free of MPI for TCP-only builds

class StopSignal {
 public:
  /// Installs the handlers for SIGUSR1, SIGTERM and SIGINT (also over an inherited "ignore", as a
  /// background job of a script has for SIGINT); the destructor restores the previous ones.
  StopSignal();
  ~StopSignal();
  StopSignal(const StopSignal&) = delete;
  StopSignal& operator=(const StopSignal&) = delete;

  /// The signal this process caught (SIGUSR1, SIGTERM or SIGINT; the last one), or 0.
  int caught() const;
  /// Collective over `group`: the signal some rank caught (the largest number), or 0 on every rank.
  int caught_anywhere(const RankGroup& group) const;
};

/// The signal a StopSignal of this process caught, or 0 (none caught, or none installed).
int caught_stop_signal();

/// "USR1", "TERM", "INT", or "a signal".
const char* signal_name(int signal);

}  // namespace trackcosim::comm
