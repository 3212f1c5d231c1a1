#pragma once
// The settled surface as a height map (docs/terrain-config.md, "Height map"): a regular x/y grid
// whose cell value is the highest sphere top (z + r) over the spheres whose centre lies in the
// cell; a cell that holds no centre is empty (NaN). This is the surface a vehicle meets, sampled
// at the particle scale: a finer grid leaves holes between centres, a coarser one hides the
// roughness of one grain.
//
// Layout, shared with the generators' heightmap input so that a written map reads back as a
// terrain source: column 0 is the smallest x, row 0 the LARGEST y (the top of a picture), and
// the map covers [x_min, x_min + columns * spacing] x [y_min, y_min + rows * spacing]. Its
// values are cell centres; the heightmap source places its first and last pixels on its
// rectangle's edges, so it reads a written map over the rectangle of the centres.
//
//   heightmap.csv  "# key=value" header lines (origin, spacing, columns, rows, z range), then
//                  one line per row, cell tops in metres, empty cells blank;
//   heightmap.png  16-bit gray, value (top - z_min) / (z_max - z_min), empty cells 0 (the
//                  range is in the CSV header and settle.json; a flat map is all 0).

#include <cstddef>
#include <filesystem>
#include <optional>
#include <utility>
#include <vector>

namespace trackcosim::terrain {

struct HeightMapGrid {
  double x_min = 0, y_min = 0;         ///< lower corner [m]
  double spacing = 0;                  ///< cell edge [m]
  std::size_t columns = 0, rows = 0;   ///< cells along x and along y

  double x_max() const { return x_min + spacing * static_cast<double>(columns); }
  double y_max() const { return y_min + spacing * static_cast<double>(rows); }
  /// Row-major index (row 0 = largest y) of the cell holding (x, y); nullopt outside the grid.
  std::optional<std::size_t> cell(double x, double y) const;
  /// Centre of cell (column, row).
  std::pair<double, double> centre(std::size_t column, std::size_t row) const;
};

/// The grid from (x_min, y_min) with cells of edge `spacing` that covers [x_min, x_max] x
/// [y_min, y_max]: ceil(width / spacing) columns (at least 1), the same for rows.
HeightMapGrid covering_grid(double x_min, double y_min, double x_max, double y_max, double spacing);

struct HeightMap {
  HeightMapGrid grid;
  std::vector<double> top;  ///< rows x columns, row-major, row 0 = largest y; NaN = empty

  /// Every cell empty.
  explicit HeightMap(HeightMapGrid g = {});
  /// Raises the cell holding (x, y) to `value` if that is higher; points outside are ignored.
  void raise(double x, double y, double value);
  std::size_t filled() const;
  /// Lowest and highest filled cell; {NaN, NaN} when all are empty.
  std::pair<double, double> range() const;
};

/// Throws OutputError naming the file.
void write_height_map_csv(const std::filesystem::path& file, const HeightMap& map);
/// Reads what write_height_map_csv wrote (numbers come back to the same bits). Throws
/// ConfigError naming the file and the line for anything else.
HeightMap read_height_map_csv(const std::filesystem::path& file);
/// 16-bit gray PNG over the map's own range (see above). Throws OutputError naming the file.
void write_height_map_png(const std::filesystem::path& file, const HeightMap& map);

}  // namespace trackcosim::terrain
