#pragma once
// The top surface of a distributed bed as it is now, measured by every terrain rank together:
// each rank raises a height map (height_map.h) with the spheres it owns, and the maps are merged
// by maximum, so the result is the same bits on any rank count and no rank ever holds the
// whole bed. The settle statistics measure a settled bed with it (output/settle_statistics.h),
// and a co-simulation writes the undisturbed surface with it when the coupling starts
// (surface_start.csv), against which the launcher measures the tracks' sinkage
// (docs/mobility-metrics.md).

#include <cstdint>
#include <filesystem>
#include <vector>

#include "terrain_node/config/terrain_config.h"
#include "terrain_node/distributed/distributed_terrain.h"
#include "terrain_node/output/height_map.h"

namespace trackcosim::terrain {

/// The bed's x/y extent and floor: the container's, else the spheres' bounding box over all ranks.
struct BedFrame {
  double x_min, y_min, x_max, y_max, floor;
};

struct BedSurface {
  BedFrame frame;
  std::uint64_t spheres = 0;  ///< dynamic spheres over all ranks
  double mean_diameter = 0;   ///< of those spheres [m]
  HeightMap height_map;       ///< empty grid when there are no spheres
};

/// Collective over the terrain's ranks. `spheres`: this rank's owned spheres
/// (DistributedTerrain::owned_spheres). Cells of output.heightmap_spacing, else one mean sphere
/// diameter, over the frame's x/y extent.
BedSurface measure_bed_surface(const std::vector<WorldSphere>& spheres, const TerrainConfig& config,
                               const comm::RankGroup& group);

/// Collective: measures the terrain's surface now and has the leader write it as a height-map
/// CSV (height_map.h) to `file`. Throws OutputError on the leader when it cannot be written.
void write_bed_surface(const DistributedTerrain& terrain, const TerrainConfig& config,
                       const std::filesystem::path& file);

}  // namespace trackcosim::terrain
