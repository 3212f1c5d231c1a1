#include "terrain_node/output/height_map.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>

#include "io/config_error.h"
#include "io/number_text.h"
#include "io/output_file.h"

namespace trackcosim::terrain {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr const char* kMagic = "# trackcosim heightmap 1";

[[noreturn]] void bad_csv(const std::filesystem::path& file, std::size_t line, const std::string& why) {
  throw io::ConfigError(file.string() + ":" + std::to_string(line) + ": " + why);
}

double parse_number(const std::filesystem::path& file, std::size_t line, const std::string& text) {
  double v = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
    bad_csv(file, line, "expected a number or an empty cell, got '" + text + "'");
  return v;
}

}  // namespace

std::optional<std::size_t> HeightMapGrid::cell(double x, double y) const {
  const double cx = std::floor((x - x_min) / spacing), cy = std::floor((y - y_min) / spacing);
  if (!(cx >= 0 && cy >= 0 && cx < static_cast<double>(columns) && cy < static_cast<double>(rows))) return std::nullopt;
  const auto column = static_cast<std::size_t>(cx);
  const std::size_t row = rows - 1 - static_cast<std::size_t>(cy);
  return row * columns + column;
}

std::pair<double, double> HeightMapGrid::centre(std::size_t column, std::size_t row) const {
  return {x_min + (static_cast<double>(column) + 0.5) * spacing,
          y_min + (static_cast<double>(rows - 1 - row) + 0.5) * spacing};
}

HeightMapGrid covering_grid(double x_min, double y_min, double x_max, double y_max, double spacing) {
  // A whisker below the exact quotient so that a 0.2 m side with 0.01 m cells has 20, not 21.
  auto cells = [&](double width) {
    return static_cast<std::size_t>(std::max(1.0, std::ceil(width / spacing - 1e-9)));
  };
  return {x_min, y_min, spacing, cells(x_max - x_min), cells(y_max - y_min)};
}

HeightMap::HeightMap(HeightMapGrid g) : grid(g), top(g.columns * g.rows, kNaN) {}

void HeightMap::raise(double x, double y, double value) {
  const std::optional<std::size_t> c = grid.cell(x, y);
  if (c && (std::isnan(top[*c]) || value > top[*c])) top[*c] = value;
}

std::size_t HeightMap::filled() const {
  return static_cast<std::size_t>(std::count_if(top.begin(), top.end(), [](double v) { return !std::isnan(v); }));
}

std::pair<double, double> HeightMap::range() const {
  double lo = kNaN, hi = kNaN;
  for (const double v : top) {
    if (std::isnan(v)) continue;
    lo = std::isnan(lo) ? v : std::min(lo, v);
    hi = std::isnan(hi) ? v : std::max(hi, v);
  }
  return {lo, hi};
}

void write_height_map_csv(const std::filesystem::path& file, const HeightMap& map) {
  const HeightMapGrid& g = map.grid;
  const auto [z_min, z_max] = map.range();
  io::write_output_file(file, [&](std::ostream& out) {
    std::string text = std::string(kMagic) + ": highest sphere top z + r [m] per cell\n";
    text += "# row 0 = largest y, column 0 = smallest x; a cell spans [x_min + c spacing, x_min + (c+1) spacing]"
            " x [y_max - (r+1) spacing, y_max - r spacing]; empty cells are blank\n";
    auto key = [&](const char* name, auto value) {
      text += std::string("# ") + name + "=";
      io::append_number(text, value);
      text += "\n";
    };
    key("x_min", g.x_min);
    key("y_min", g.y_min);
    key("x_max", g.x_max());
    key("y_max", g.y_max());
    key("spacing", g.spacing);
    key("columns", g.columns);
    key("rows", g.rows);
    key("z_min", z_min);
    key("z_max", z_max);
    for (std::size_t r = 0; r < g.rows; ++r) {
      for (std::size_t c = 0; c < g.columns; ++c) {
        if (c > 0) text += ',';
        const double v = map.top[r * g.columns + c];
        if (!std::isnan(v)) io::append_number(text, v);
      }
      text += '\n';
    }
    out << text;
  });
}

HeightMap read_height_map_csv(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw io::ConfigError(file.string() + ": cannot open the height map");
  std::string line;
  std::size_t number = 0;
  std::map<std::string, double> keys;
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    ++number;
    if (number == 1 && !line.starts_with(kMagic)) bad_csv(file, 1, "not a trackcosim height map (no '" + std::string(kMagic) + "')");
    if (line.starts_with("#")) {
      // "# name=value" lines carry the grid; other comment lines are prose.
      const std::size_t eq = line.find('=');
      const std::string name = eq == std::string::npos ? std::string() : line.substr(2, eq - 2);
      if (!name.empty() && name.find(' ') == std::string::npos)
        keys[name] = parse_number(file, number, line.substr(eq + 1));
      continue;
    }
    std::vector<double> row;
    std::stringstream cells(line);
    std::string cell;
    while (std::getline(cells, cell, ',')) row.push_back(cell.empty() ? kNaN : parse_number(file, number, cell));
    if (!line.empty() && line.back() == ',') row.push_back(kNaN);
    rows.push_back(std::move(row));
  }
  for (const char* k : {"x_min", "y_min", "spacing", "columns", "rows"})
    if (!keys.count(k)) bad_csv(file, number, std::string("header key '") + k + "' missing");
  HeightMapGrid g{keys["x_min"], keys["y_min"], keys["spacing"], static_cast<std::size_t>(keys["columns"]),
                  static_cast<std::size_t>(keys["rows"])};
  if (rows.size() != g.rows) bad_csv(file, number, std::to_string(rows.size()) + " rows, the header says " + std::to_string(g.rows));
  HeightMap map(g);
  for (std::size_t r = 0; r < g.rows; ++r) {
    if (rows[r].size() != g.columns)
      bad_csv(file, number, "row " + std::to_string(r) + " has " + std::to_string(rows[r].size()) +
                                " cells, the header says " + std::to_string(g.columns));
    std::copy(rows[r].begin(), rows[r].end(), map.top.begin() + static_cast<std::ptrdiff_t>(r * g.columns));
  }
  return map;
}

}  // namespace trackcosim::terrain
