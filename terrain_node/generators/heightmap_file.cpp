// Grayscale heightmaps (Heyn 2009, sec. 6.1.3): value 0 (black) is the lowest elevation, 1
// (white) the highest; the physical range is given, since the image is normalised.

#include "io/config_error.h"
#include "io/gray_image.h"
#include "terrain_node/generators/elevation_surface.h"

namespace trackcosim::terrain {

ElevationSurface read_heightmap(const std::filesystem::path& file, Rectangle area, real low, real high) {
  const io::GrayImage image = io::read_gray_image(file);
  if (image.width < 2 || image.height < 2)
    throw io::ConfigError(file.string() + ": a heightmap needs at least 2 x 2 pixels, got " + std::to_string(image.width) +
                      " x " + std::to_string(image.height));
  std::vector<real> heights(image.value.size());
  for (std::size_t k = 0; k < heights.size(); ++k) heights[k] = low + real(image.value[k]) * (high - low);
  return ElevationSurface::grid(area, image.width, image.height, std::move(heights));
}

}  // namespace trackcosim::terrain
