#include "domain/grid_layout.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace trackcosim::domain {
namespace {

[[noreturn]] void bad_layout(std::string_view text) {
  throw std::invalid_argument("layout \"" + std::string(text) +
                              "\" is not one of: auto, slab:x, slab:y, slab:z, grid:PXxPYxPZ (e.g. grid:2x2x1)");
}

int positive(std::string_view part, std::string_view text) {
  int v = 0;
  const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), v);
  if (error != std::errc() || end != part.data() + part.size() || v < 1) bad_layout(text);
  return v;
}

}  // namespace

LayoutRequest parse_layout(std::string_view text) {
  LayoutRequest r;
  if (text == "auto") return r;
  if (text.starts_with("slab:") && text.size() == 6) {
    const char a = text[5];
    if (a < 'x' || a > 'z') bad_layout(text);
    r.kind = LayoutKind::Slab;
    r.slab_axis = a - 'x';
    return r;
  }
  if (!text.starts_with("grid:")) bad_layout(text);
  const std::string_view dims = text.substr(5);
  const std::size_t first = dims.find('x');
  const std::size_t second = first == std::string_view::npos ? first : dims.find('x', first + 1);
  if (second == std::string_view::npos || dims.find('x', second + 1) != std::string_view::npos) bad_layout(text);
  r.kind = LayoutKind::Grid;
  r.grid = {positive(dims.substr(0, first), text), positive(dims.substr(first + 1, second - first - 1), text),
            positive(dims.substr(second + 1), text)};
  return r;
}

std::string layout_name(const GridShape& g) {
  const int cut_axes = (g.px > 1) + (g.py > 1) + (g.pz > 1);
  if (cut_axes == 0) return "single";
  if (cut_axes == 1) return std::string("slab:") + (g.px > 1 ? 'x' : g.py > 1 ? 'y' : 'z');
  return "grid:" + std::to_string(g.px) + "x" + std::to_string(g.py) + "x" + std::to_string(g.pz);
}

GridShape choose_grid(const LayoutRequest& request, int ranks, const Aabb& world) {
  if (ranks < 1) throw std::invalid_argument("rank count must be >= 1, got " + std::to_string(ranks));
  switch (request.kind) {
    case LayoutKind::Slab: {
      GridShape g;
      (request.slab_axis == 0 ? g.px : request.slab_axis == 1 ? g.py : g.pz) = ranks;
      return g;
    }
    case LayoutKind::Grid:
      if (request.grid.count() != ranks)
        throw std::invalid_argument("layout " + layout_name(request.grid) + " has " +
                                    std::to_string(request.grid.count()) + " subdomains for " + std::to_string(ranks) +
                                    " ranks");
      return request.grid;
    case LayoutKind::Auto:
      break;
  }
  // Interior cut area of a px x py x pz grid of a box with extents (X, Y, Z):
  // (px - 1) Y Z + (py - 1) X Z + (pz - 1) X Y. Degenerate extents count as a small width so a
  // flat bed still prefers cutting its long side.
  const real ex = std::max(world.hi.x - world.lo.x, real(1e-9));
  const real ey = std::max(world.hi.y - world.lo.y, real(1e-9));
  const real ez = std::max(world.hi.z - world.lo.z, real(1e-9));
  const bool z_longest = ez >= ex && ez >= ey;
  GridShape best{ranks, 1, 1};
  real best_area = -1;
  int best_axes = 4;
  for (int px = ranks; px >= 1; --px) {
    if (ranks % px != 0) continue;
    for (int py = ranks / px; py >= 1; --py) {
      if ((ranks / px) % py != 0) continue;
      const int pz = ranks / px / py;
      if (pz > 1 && !z_longest) continue;
      const real area = real(px - 1) * ey * ez + real(py - 1) * ex * ez + real(pz - 1) * ex * ey;
      const int axes = (px > 1) + (py > 1) + (pz > 1);
      // Loop order visits x-heavy grids first, so a strict comparison keeps x before y before z.
      if (best_area < 0 || area < best_area * (1 - 1e-12) || (area <= best_area * (1 + 1e-12) && axes < best_axes)) {
        best = {px, py, pz};
        best_area = area;
        best_axes = axes;
      }
    }
  }
  return best;
}

}  // namespace trackcosim::domain
