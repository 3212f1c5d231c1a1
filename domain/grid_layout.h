#pragma once
// How many subdomains along each axis: a slab split (one axis cut) or a px x py x pz grid,
// requested by name or chosen from the shape of the particle bed.

#include <string>
#include <string_view>

#include "domain/aabb.h"

namespace trackcosim::domain {

struct GridShape {
  int px = 1, py = 1, pz = 1;
  int count() const { return px * py * pz; }
};

enum class LayoutKind { Auto, Slab, Grid };
struct LayoutRequest {
  LayoutKind kind = LayoutKind::Auto;
  int slab_axis = 0;
  GridShape grid;
};

/// "auto", "slab:x" | "slab:y" | "slab:z", "grid:PXxPYxPZ" (e.g. "grid:2x2x1"). Throws
/// std::invalid_argument quoting the text and listing the accepted forms.
LayoutRequest parse_layout(std::string_view text);

/// "single" (1x1x1), "slab:x" when only one axis is cut, else "grid:PXxPYxPZ".
std::string layout_name(const GridShape& g);

/// The grid for `ranks` ranks over `world` (the particles' bounding box). Slab: all ranks along
/// the axis. Grid: count() must equal ranks (std::invalid_argument naming both). Auto: the
/// factorisation with the least interior cut area for `world` (ties: fewer cut axes, then x
/// before y before z); z is cut only when it is the longest extent.
GridShape choose_grid(const LayoutRequest& request, int ranks, const Aabb& world);

inline int rank_of(const GridShape& g, int ix, int iy, int iz) { return ix + g.px * (iy + g.py * iz); }

}  // namespace trackcosim::domain
