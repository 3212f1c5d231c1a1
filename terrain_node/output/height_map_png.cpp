// heightmap.png: the height map as the 16-bit gray picture the generators' heightmap source reads
// (io/gray_image.h), scaled over the map's own elevation range.

#include <cmath>

#include "io/gray_image.h"
#include "terrain_node/output/height_map.h"

namespace trackcosim::terrain {

void write_height_map_png(const std::filesystem::path& file, const HeightMap& map) {
  const auto [z_min, z_max] = map.range();
  const double span = z_max - z_min;
  io::GrayImage image;
  image.width = map.grid.columns;
  image.height = map.grid.rows;
  image.value.resize(map.top.size(), 0.0);
  for (std::size_t i = 0; i < map.top.size(); ++i)
    if (!std::isnan(map.top[i]) && span > 0) image.value[i] = (map.top[i] - z_min) / span;
  io::write_gray_png(file, image);
}

}  // namespace trackcosim::terrain
