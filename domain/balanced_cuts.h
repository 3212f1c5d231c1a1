#pragma once
// Where to cut one axis so that every part holds about the same number of particles. Ranks
// each histogram their own particles; the counts are added element-wise (an allreduce, at
// set-up or on a rebalance) and every rank then computes the same cuts.

#include <cstdint>
#include <span>
#include <vector>

#include "math/real.h"

namespace trackcosim::domain {

/// Counts in `counts.size()` equal bins over [lo, hi); coordinates outside go to the end bins.
struct AxisHistogram {
  real lo = 0, hi = 1;
  std::vector<std::uint64_t> counts;
};
AxisHistogram axis_histogram(std::span<const real> coordinates, real lo, real hi, std::size_t bins);

/// parts - 1 increasing interior cuts at the count quantiles (linear inside a bin), so each part
/// holds about total / parts particles. Each cut is kept at least min_width (the ghost width: a
/// subdomain thinner than that breaks the neighbour assumption) from its neighbours and from lo
/// and hi when the range allows it; when it does not, the cuts are uniform. No particles: uniform.
std::vector<real> balanced_cuts(const AxisHistogram& h, int parts, real min_width);
/// parts - 1 interior cuts splitting [lo, hi] into equal widths.
std::vector<real> uniform_cuts(real lo, real hi, int parts);

}  // namespace trackcosim::domain
