#pragma once
// What a body is to one rank: owned (centre in its box, no neighbour needs it), shared (owned,
// and within the ghost width of another box, so a neighbour holds a copy), ghost (a copy of a
// neighbour's body within the ghost width of this box) or outside (not held).

#include <cstdint>
#include <vector>

#include "domain/decomposition.h"

namespace trackcosim::domain {

enum class BodyRole : std::uint8_t { Owned, Shared, Ghost, Outside };

BodyRole classify(const Decomposition& d, int rank, Vec3 p, real width);

/// Ranks other than `owner` whose boxes are within `width` of p, increasing (out is cleared).
void ranks_needing_ghost(const Decomposition& d, int owner, Vec3 p, real width, std::vector<int>& out);

}  // namespace trackcosim::domain
