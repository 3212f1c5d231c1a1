#include "comm/node_ranks.h"

#include <mpi.h>

namespace trackcosim::comm {

namespace {

/// The group's ranks on this node, ordered by group rank: their count, or this rank's place.
int on_this_node(const RankGroup& group, bool place) {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(group.handle(), MPI_COMM_TYPE_SHARED, group.rank(), MPI_INFO_NULL, &node);
  int value = place ? 0 : 1;
  if (place) MPI_Comm_rank(node, &value);
  else MPI_Comm_size(node, &value);
  MPI_Comm_free(&node);
  return value;
}

}  // namespace

int ranks_on_this_node(const RankGroup& group) { return on_this_node(group, false); }

int rank_on_this_node(const RankGroup& group) { return on_this_node(group, true); }

}  // namespace trackcosim::comm
