// Surface files for the surface-following generators: CSV height grids and OBJ meshes
// (terrain_node/generators/elevation_surface.h; the OBJ parser is geometry/mesh_file.h's, shared with
// the spherical decomposition). Errors name the file and the line, as config errors do.

#include <charconv>
#include <cmath>
#include <sstream>
#include <string>

#include "io/config_error.h"
#include "io/input_file.h"
#include "geometry/mesh_file.h"
#include "terrain_node/generators/elevation_surface.h"

namespace trackcosim::terrain {
namespace {

std::istringstream open_text(const std::filesystem::path& file) { return std::istringstream(io::read_input_file(file)); }

[[noreturn]] void fail_at(const std::filesystem::path& file, std::size_t line, const std::string& why) {
  throw io::ConfigError(file.string() + ":" + std::to_string(line) + ": " + why);
}

/// A finite number filling all of `text` (spaces around it allowed).
bool parse_number(std::string_view text, double& value) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() && std::isfinite(value);
}

}  // namespace

ElevationSurface read_elevation_csv(const std::filesystem::path& file, Rectangle area) {
  std::istringstream in = open_text(file);
  std::vector<real> heights;
  std::size_t columns = 0, rows = 0, number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos || line[line.find_first_not_of(" \t")] == '#') continue;
    std::size_t count = 0, start = 0;
    while (true) {
      const std::size_t comma = line.find(',', start);
      const std::string_view cell(line.data() + start, (comma == std::string::npos ? line.size() : comma) - start);
      double value = 0;
      if (!parse_number(cell, value))
        fail_at(file, number, "column " + std::to_string(count + 1) + ": expected a height in metres, got '" +
                                  std::string(cell) + "'");
      heights.push_back(real(value));
      ++count;
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    if (rows == 0) columns = count;
    else if (count != columns)
      fail_at(file, number, "row of " + std::to_string(count) + " heights, the first row has " + std::to_string(columns));
    ++rows;
  }
  if (rows < 2 || columns < 2)
    throw io::ConfigError(file.string() + ": an elevation grid needs at least 2 rows of at least 2 heights, got " +
                      std::to_string(rows) + " x " + std::to_string(columns));
  return ElevationSurface::grid(area, columns, rows, std::move(heights));
}

ElevationSurface read_elevation_obj(const std::filesystem::path& file) {
  geometry::TriangleMesh mesh = geometry::read_obj_file(file);
  if (mesh.triangles.empty()) throw io::ConfigError(file.string() + ": no faces ('f' lines) found");
  return ElevationSurface::mesh(std::move(mesh.vertices), std::move(mesh.triangles));
}

}  // namespace trackcosim::terrain
