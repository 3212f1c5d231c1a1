#include "terrain_node/distributed/rank_device.h"

#include <cstdio>

#include "comm/node_ranks.h"

namespace trackcosim::terrain {

gpu::DeviceChoice set_rank_device(const comm::RankGroup& group) {
  const gpu::DeviceChoice choice = gpu::choose_device(comm::rank_on_this_node(group));
  if (group.leader()) {
    std::printf("device     %s (rank 0)\n", choice.description.c_str());
    std::fflush(stdout);
  }
  return choice;
}

}  // namespace trackcosim::terrain
