#pragma once
// The device of a terrain rank, chosen once at the start of a --config or --cosim run, before
// the bed is built (gpu/memory/device_choice.h): the rank's place among the group's ranks on its
// node picks its GPU, so a node with as many ranks as GPUs gives each rank its own.

#include "comm/rank_group.h"
#include "gpu/memory/device_choice.h"

namespace trackcosim::terrain {

/// Collective over `group` (the terrain's ranks): chooses this rank's device and, on the leader,
/// prints it ("device     ..."). Throws std::runtime_error from a CUDA build without a usable GPU.
gpu::DeviceChoice set_rank_device(const comm::RankGroup& group);

}  // namespace trackcosim::terrain
