// StopSignal::caught_anywhere, the one part of the stop signal that needs MPI: kept apart so that
// stop_signal.cpp serves the TCP-only coupler library (trackcosim_comm_tcp) as well.

#include "comm/rank_group.h"
#include "comm/stop_signal.h"

namespace trackcosim::comm {

int StopSignal::caught_anywhere(const RankGroup& group) const { return group.max(caught()); }

}  // namespace trackcosim::comm
