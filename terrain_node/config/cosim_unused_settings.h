#pragma once
// The settings of a terrain config that `terrain_node --config X --cosim` does not act on. A
// co-simulation writes run.json, timing.csv and particle snapshots (docs/protocol.md): no
// probes.csv, stats.csv, settle.json or height map, no periodic checkpoint, and it settles for
// cosim.settle_time instead of a `settle` criterion. A config that asks for one of those would
// otherwise run and quietly leave it out, so the co-simulation refuses it before it starts.

#include "terrain_node/config/terrain_config.h"

namespace trackcosim::terrain {

/// Throws io::ConfigError "<file>: <key path>: <why>" for the first setting in the list above
/// whose value asks for something (a default, or an interval of 0, is fine). Call it once the
/// config of a --cosim run is loaded, before any rank opens a channel or builds the bed.
void refuse_settings_unused_by_cosim(const TerrainConfig& config);

}  // namespace trackcosim::terrain
