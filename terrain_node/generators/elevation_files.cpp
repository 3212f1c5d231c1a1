// Surface files for the surface-following generators: CSV height grids and OBJ meshes
// (terrain_node/generators/elevation_surface.h). Errors name the file and the line, as config errors do.

#include <charconv>
#include <cmath>
#include <sstream>
#include <string>

#include "io/config_error.h"
#include "io/input_file.h"
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
  std::istringstream in = open_text(file);
  std::vector<Vec3> vertices;
  std::vector<std::array<std::uint32_t, 3>> triangles;
  std::size_t number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    std::istringstream words(line);
    std::string tag;
    if (!(words >> tag)) continue;
    if (tag == "v") {
      std::string w[3];
      double c[3];
      for (int a = 0; a < 3; ++a)
        if (!(words >> w[a]) || !parse_number(w[a], c[a])) fail_at(file, number, "expected 'v x y z' with finite numbers");
      vertices.push_back({real(c[0]), real(c[1]), real(c[2])});
    } else if (tag == "f") {
      std::vector<std::uint32_t> face;
      for (std::string item; words >> item;) {
        long long index = 0;
        const std::string head = item.substr(0, item.find('/'));
        const auto [end, error] = std::from_chars(head.data(), head.data() + head.size(), index);
        // OBJ indices count from 1; negative ones count back from the latest vertex.
        const long long resolved = index < 0 ? (long long)vertices.size() + index : index - 1;
        if (error != std::errc() || end != head.data() + head.size() || index == 0 || resolved < 0 ||
            resolved >= (long long)vertices.size())
          fail_at(file, number, "face vertex '" + item + "' does not name one of the " +
                                    std::to_string(vertices.size()) + " vertices defined so far");
        face.push_back(std::uint32_t(resolved));
      }
      if (face.size() < 3) fail_at(file, number, "a face needs at least 3 vertices");
      for (std::size_t k = 1; k + 1 < face.size(); ++k) triangles.push_back({face[0], face[k], face[k + 1]});
    }
  }
  if (triangles.empty()) throw io::ConfigError(file.string() + ": no faces ('f' lines) found");
  return ElevationSurface::mesh(std::move(vertices), std::move(triangles));
}

}  // namespace trackcosim::terrain
