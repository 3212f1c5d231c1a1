#pragma once
// A terrain surface z(x, y) for the surface-following generators (docs/terrain-config.md,
// `heightmap` and `elevation_grid`): either heights on a rectangular grid of nodes, read
// bilinearly, or a triangle mesh (Wavefront OBJ), read by finding the triangle under (x, y) and
// interpolating its vertices barycentrically. Grid convention, shared by images and CSV files:
// column 0 lies at x_min and the last column at x_max; row 0 lies at y_max (the top of a picture
// or of a map with +y up) and the last row at y_min.

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

#include "math/vec3.h"

namespace trackcosim::terrain {

struct Rectangle {
  real x_min = 0, y_min = 0, x_max = 0, y_max = 0;
  bool contains(real x, real y) const { return x_min <= x && x <= x_max && y_min <= y && y <= y_max; }
};

class ElevationSurface {
 public:
  ElevationSurface() = default;
  /// heights: rows x columns, row-major, row 0 at y_max; at least 2 x 2.
  static ElevationSurface grid(Rectangle area, std::size_t columns, std::size_t rows, std::vector<real> heights);
  static ElevationSurface mesh(std::vector<Vec3> vertices, std::vector<std::array<std::uint32_t, 3>> triangles);

  /// The height at (x, y); nothing outside the grid's rectangle or where no triangle lies beneath
  /// (the highest one where several do).
  std::optional<real> height(real x, real y) const;
  /// The rectangle the surface covers (a mesh: its vertices' x-y bounds).
  const Rectangle& area() const { return area_; }
  real lowest() const { return lowest_; }
  real highest() const { return highest_; }
  std::size_t triangle_count() const { return triangles_.size(); }

 private:
  void index_triangles();
  std::optional<real> grid_height(real x, real y) const;
  std::optional<real> mesh_height(real x, real y) const;

  Rectangle area_;
  real lowest_ = 0, highest_ = 0;
  // Grid.
  std::size_t columns_ = 0, rows_ = 0;
  std::vector<real> heights_;
  // Mesh, with a uniform bucket grid over the x-y bounds listing the triangles that touch a bucket.
  std::vector<Vec3> vertices_;
  std::vector<std::array<std::uint32_t, 3>> triangles_;
  std::size_t buckets_x_ = 0, buckets_y_ = 0;
  std::vector<std::uint32_t> bucket_start_, bucket_triangles_;
};

/// Heights from a CSV file: one row of the grid per line, values separated by commas (blank
/// lines and lines starting with '#' skipped), every row the same length. Throws ConfigError
/// naming the file, line and column of a bad value.
ElevationSurface read_elevation_csv(const std::filesystem::path& file, Rectangle area);
/// Vertices ("v x y z") and faces ("f a b c ...", polygons split into fans; "a/b/c" and negative
/// indices accepted) of an OBJ file in world coordinates (z up). Throws ConfigError.
ElevationSurface read_elevation_obj(const std::filesystem::path& file);
/// A grayscale image (PGM or PNG, io/gray_image.h): elevation = low + value * (high - low).
ElevationSurface read_heightmap(const std::filesystem::path& file, Rectangle area, real low, real high);

}  // namespace trackcosim::terrain
