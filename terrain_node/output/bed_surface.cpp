#include "terrain_node/output/bed_surface.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "comm/gather.h"

namespace trackcosim::terrain {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

BedFrame bed_frame(const std::vector<WorldSphere>& spheres, const TerrainConfig& config,
                   const comm::RankGroup& group) {
  double lo[3] = {kInf, kInf, kInf}, hi[2] = {-kInf, -kInf};  // x, y, bottom z; x, y
  for (const WorldSphere& s : spheres) {
    lo[0] = std::min(lo[0], s.centre.x - s.radius);
    lo[1] = std::min(lo[1], s.centre.y - s.radius);
    lo[2] = std::min(lo[2], s.centre.z - s.radius);
    hi[0] = std::max(hi[0], s.centre.x + s.radius);
    hi[1] = std::max(hi[1], s.centre.y + s.radius);
  }
  group.min_in_place(lo);
  group.max_in_place(hi);
  if (const auto& c = config.scene.container) return {c->min.x, c->min.y, c->max.x, c->max.y, c->min.z};
  return {lo[0], lo[1], hi[0], hi[1], lo[2]};
}

/// Every rank's sphere tops merged by maximum (empty = -inf during the reduction).
HeightMap surface(const std::vector<WorldSphere>& spheres, const HeightMapGrid& grid, const comm::RankGroup& group) {
  HeightMap map(grid);
  for (const WorldSphere& s : spheres) map.raise(s.centre.x, s.centre.y, s.centre.z + s.radius);
  for (double& v : map.top)
    if (std::isnan(v)) v = -kInf;
  group.max_in_place(map.top);
  for (double& v : map.top)
    if (std::isinf(v)) v = kNaN;
  return map;
}

}  // namespace

BedSurface measure_bed_surface(const std::vector<WorldSphere>& spheres, const TerrainConfig& config,
                               const comm::RankGroup& group) {
  BedSurface b;
  comm::ExactSum diameters;
  for (const WorldSphere& w : spheres) diameters.add(2 * w.radius);
  b.spheres = group.sum(std::uint64_t{spheres.size()});
  const double diameter_sum = diameters.total(group);
  b.mean_diameter = b.spheres > 0 ? diameter_sum / double(b.spheres) : 0;
  b.frame = bed_frame(spheres, config, group);
  const double spacing =
      config.scene.output.heightmap_spacing > 0 ? double(config.scene.output.heightmap_spacing) : b.mean_diameter;
  if (b.spheres > 0 && spacing > 0)
    b.height_map = surface(spheres, covering_grid(b.frame.x_min, b.frame.y_min, b.frame.x_max, b.frame.y_max, spacing),
                           group);
  return b;
}

void write_bed_surface(const DistributedTerrain& terrain, const TerrainConfig& config,
                       const std::filesystem::path& file) {
  const BedSurface bed = measure_bed_surface(terrain.owned_spheres(), config, terrain.group());
  if (terrain.leader()) write_height_map_csv(file, bed.height_map);
}

}  // namespace trackcosim::terrain
