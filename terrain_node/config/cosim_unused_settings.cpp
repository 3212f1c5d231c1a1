#include "terrain_node/config/cosim_unused_settings.h"

#include <string>

#include "io/config_error.h"

namespace trackcosim::terrain {
namespace {

[[noreturn]] void refuse(const TerrainConfig& config, const std::string& key, const std::string& why) {
  throw io::ConfigError(config.source + ": " + key + ": " + why +
                        "; remove it from the co-simulation's terrain config (docs/terrain-config.md, \"cosim\")");
}

}  // namespace

void refuse_settings_unused_by_cosim(const TerrainConfig& config) {
  const OutputSettings& out = config.scene.output;
  const OutputSettings defaults;
  // The message names what a standalone run would have written, so that the reader knows where
  // to get it: the same config without --cosim, or with --from-checkpoint on the coupled bed.
  // (output.snapshot_interval is used: particle snapshots of the coupling, cosim_snapshots.h.)
  if (!out.probes.empty())
    refuse(config, "output.probes", "co-simulation writes no probes.csv (a standalone --config run does)");
  if (out.probe_interval != defaults.probe_interval)
    refuse(config, "output.probe_interval", "co-simulation writes no probes.csv (a standalone --config run does)");
  if (out.checkpoint_interval != 0)
    refuse(config, "output.checkpoint_interval",
           "co-simulation writes checkpoint.bin only when a stop signal ends it or the vehicle asks for one, every "
           "vehicle_node --checkpoint-interval (the run file's vehicle.checkpoint_interval; docs/protocol.md), not "
           "every N terrain steps");
  // A compaction measures the bed's packing as the settle statistics do, with these two.
  const bool compacts = config.scene.cosim.compaction.has_value();
  if (!compacts && out.heightmap_spacing != defaults.heightmap_spacing)
    refuse(config, "output.heightmap_spacing",
           "co-simulation writes no heightmap.csv/.png (the settle statistics of a standalone --config run; "
           "cosim.compaction uses it)");
  if (!compacts && out.packing_margin != defaults.packing_margin)
    refuse(config, "output.packing_margin",
           "co-simulation writes no settle.json (the settle statistics of a standalone --config run; "
           "cosim.compaction uses it)");
  if (out.contact_gap != defaults.contact_gap)
    refuse(config, "output.contact_gap",
           "co-simulation writes no settle.json (the settle statistics of a standalone --config run)");
  if (config.scene.settle.enabled)
    refuse(config, "settle",
           "co-simulation settles for cosim.settle_time, not until a settle criterion holds (settle a bed with a "
           "standalone --config run and start from its checkpoint: docs/settling.md)");
}

}  // namespace trackcosim::terrain
