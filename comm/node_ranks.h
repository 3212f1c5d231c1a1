#pragma once
// How many ranks of a group share this rank's node: the last resort of the thread-count choice
// (runtime/thread_choice.h) when no launcher variable says it.

#include "comm/rank_group.h"

namespace trackcosim::comm {

/// Collective over `group`: the ranks of `group` that share this rank's node (its memory),
/// this one included. Only the group's ranks count: in a co-simulation the vehicle's ranks on
/// the same node do not.
int ranks_on_this_node(const RankGroup& group);

/// Collective over `group`: this rank's place (from 0, in group rank order) among the group's
/// ranks on its node, e.g. to give each rank of a node its own GPU.
int rank_on_this_node(const RankGroup& group);

}  // namespace trackcosim::comm
