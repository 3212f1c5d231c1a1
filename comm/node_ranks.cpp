#include "comm/node_ranks.h"

#include <mpi.h>

namespace trackcosim::comm {

int ranks_on_this_node(const RankGroup& group) {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(group.handle(), MPI_COMM_TYPE_SHARED, group.rank(), MPI_INFO_NULL, &node);
  int size = 1;
  MPI_Comm_size(node, &size);
  MPI_Comm_free(&node);
  return size;
}

}  // namespace trackcosim::comm
