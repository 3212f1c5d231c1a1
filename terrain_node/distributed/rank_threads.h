#pragma once
// The OpenMP threads of a terrain rank, set once at the start of a --config or --cosim run
// (runtime/thread_choice.h says how they are chosen and why the default is not OpenMP's).

#include "comm/rank_group.h"
#include "runtime/thread_choice.h"

namespace trackcosim::terrain {

/// Collective over `group` (the terrain's ranks): chooses this rank's threads, sets them with
/// omp_set_num_threads and, on the group's leader, prints the oversubscription note to stderr
/// when the node has more ranks than cores. `explicit_threads`: --threads, 0 when not given.
runtime::ThreadChoice set_rank_threads(int explicit_threads, const comm::RankGroup& group);

}  // namespace trackcosim::terrain
