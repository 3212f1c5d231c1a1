#include "domain/balanced_cuts.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace trackcosim::domain {

AxisHistogram axis_histogram(std::span<const real> coordinates, real lo, real hi, std::size_t bins) {
  if (!(hi > lo) || bins == 0) throw std::invalid_argument("axis_histogram: needs hi > lo and bins > 0");
  AxisHistogram h{lo, hi, std::vector<std::uint64_t>(bins, 0)};
  const real scale = real(bins) / (hi - lo);
  for (const real x : coordinates) {
    // Compare before converting: a far-away (or NaN) coordinate must not overflow the cast.
    const real f = (x - lo) * scale;
    const std::size_t b = !(f > 0) ? 0 : f >= real(bins) ? bins - 1 : static_cast<std::size_t>(f);
    ++h.counts[b];
  }
  return h;
}

std::vector<real> uniform_cuts(real lo, real hi, int parts) {
  std::vector<real> cuts;
  for (int k = 1; k < parts; ++k) cuts.push_back(lo + (hi - lo) * real(k) / real(parts));
  return cuts;
}

std::vector<real> balanced_cuts(const AxisHistogram& h, int parts, real min_width) {
  if (parts < 1) throw std::invalid_argument("balanced_cuts: parts must be >= 1, got " + std::to_string(parts));
  std::uint64_t total = 0;
  for (const std::uint64_t c : h.counts) total += c;
  if (total == 0) return uniform_cuts(h.lo, h.hi, parts);
  const real width = (h.hi - h.lo) / real(h.counts.size());
  std::vector<real> cuts;
  std::uint64_t below = 0;  // particles in the bins before b
  std::size_t b = 0;
  for (int k = 1; k < parts; ++k) {
    const real target = real(total) * real(k) / real(parts);
    while (b < h.counts.size() && real(below + h.counts[b]) < target) below += h.counts[b++];
    const real inside = b < h.counts.size() && h.counts[b] > 0 ? (target - real(below)) / real(h.counts[b]) : 0;
    cuts.push_back(h.lo + (real(b) + inside) * width);
  }
  // Keep parts at least min_width wide: forwards, then backwards (the backward pass only lowers
  // cuts, and each stays above lo + k min_width, so both bounds hold at the end). Where the range
  // is too short for that, the widest spacing it allows (range / parts) gives uniform cuts, still
  // strictly increasing so that the Decomposition accepts them.
  const real spacing = std::min(min_width, (h.hi - h.lo) / real(parts));
  if (spacing > 0) {
    real previous = h.lo;
    for (real& c : cuts) previous = c = std::max(c, previous + spacing);
    real next = h.hi;
    for (auto it = cuts.rbegin(); it != cuts.rend(); ++it) next = *it = std::min(*it, next - spacing);
  }
  return cuts;
}

}  // namespace trackcosim::domain
