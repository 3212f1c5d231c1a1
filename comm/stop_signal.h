#pragma once
// The signal a batch system sends before a job's time limit, caught so that a run can end at a
// step boundary with a checkpoint instead of being killed mid-step. Slurm sends it with
// `#SBATCH --signal=USR1@120` (USR1 to every task, 120 s before the limit); SIGTERM, which Slurm
// sends at the limit itself and on scancel, is caught the same way. The handler only sets a flag.
//
// Ranks catch the signal at slightly different times, so a distributed run asks
// raised_anywhere() (one small allreduce) once per step, and every rank stops at the same step.

#include "comm/rank_group.h"

namespace trackcosim::comm {

class StopSignal {
 public:
  /// Installs the handlers for SIGUSR1 and SIGTERM; the destructor restores the previous ones.
  StopSignal();
  ~StopSignal();
  StopSignal(const StopSignal&) = delete;
  StopSignal& operator=(const StopSignal&) = delete;

  /// The signal this process caught (SIGUSR1 or SIGTERM), or 0.
  int caught() const;
  /// Collective over `group`: the signal some rank caught (the largest number), or 0 on every rank.
  int caught_anywhere(const RankGroup& group) const;
};

/// "USR1", "TERM", or the number.
const char* signal_name(int signal);

}  // namespace trackcosim::comm
