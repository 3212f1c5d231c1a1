#include "terrain_node/coupling/moving_patch.h"

#include <algorithm>
#include <chrono>
#include <limits>

namespace trackcosim::terrain {

namespace {

/// One band per track, `half` either side of the mean y of the footprint shoes (z <= highest) on
/// each side of `middle`; one band when every footprint shoe is on one side.
void put_track_bands(PatchBox& box, const std::vector<Vec3>& shoes, real highest, real middle, real half) {
  real sum[2] = {0, 0};
  int count[2] = {0, 0};
  for (const Vec3& p : shoes) {
    if (p.z > highest) continue;
    const int side = p.y < middle ? 0 : 1;
    sum[side] += p.y;
    ++count[side];
  }
  const real first = count[0] > 0 ? sum[0] / count[0] : sum[1] / count[1];
  box.y_lo = first - half, box.y_hi = first + half;
  if (count[0] > 0 && count[1] > 0) {
    const real second = sum[1] / count[1];
    box.y2_lo = second - half, box.y2_hi = second + half;
  }
}

}  // namespace

MovingPatch::MovingPatch(const MovingPatchSettings& settings, real largest_radius) : settings_(settings) {
  if (settings_.boundary <= 0) settings_.boundary = 2 * largest_radius;
  shift_ = settings_.rebalance_shift > 0 ? settings_.rebalance_shift : (settings_.ahead + settings_.behind) / 4;
}

PatchBox MovingPatch::box_around(const std::vector<Vec3>& shoes) const {
  PatchBox box;
  box.boundary = settings_.boundary;
  if (shoes.empty()) return box;
  // The footprint: the shoes near the ground. The lowest shoe is on it; the top run and the
  // shoes wrapped high around the sprocket and idler are not, and would stretch the box by the
  // track's whole length.
  real lowest = shoes[0].z;
  for (const Vec3& p : shoes) lowest = std::min(lowest, p.z);
  const real highest = settings_.footprint_height > 0 ? lowest + settings_.footprint_height
                                                      : std::numeric_limits<real>::infinity();
  real x_lo = std::numeric_limits<real>::infinity(), x_hi = -x_lo, y_lo = x_lo, y_hi = -x_lo;
  for (const Vec3& p : shoes) {
    if (p.z > highest) continue;
    x_lo = std::min(x_lo, p.x), x_hi = std::max(x_hi, p.x);
    y_lo = std::min(y_lo, p.y), y_hi = std::max(y_hi, p.y);
  }
  box.x_lo = x_lo - settings_.behind;
  box.x_hi = x_hi + settings_.ahead;
  if (settings_.track_width > 0) {
    put_track_bands(box, shoes, highest, (y_lo + y_hi) / 2, settings_.track_width / 2);
  } else if (settings_.width > 0) {
    const real y = (y_lo + y_hi) / 2;
    box.y_lo = y - settings_.width / 2;
    box.y_hi = y + settings_.width / 2;
  }
  return box;
}

const char* MovingPatch::csv_header() { return "step,t,x_lo,x_hi,active,fixed,stored,reactivated,cuts_moved,seconds\n"; }

PatchCounts MovingPatch::follow(DistributedTerrain& terrain, const std::vector<Vec3>& shoes, std::uint64_t step,
                                double t, std::ofstream& csv) {
  const auto start = std::chrono::steady_clock::now();
  const PatchBox box = box_around(shoes);
  // The same decision on every rank: it depends only on the broadcast shoe states.
  const bool move_cuts = terrain.ranks() > 1 && !(std::abs(box.x_lo - cut_x_) < shift_);
  if (move_cuts) cut_x_ = box.x_lo;
  const PatchCounts c = terrain.apply_patch(box, move_cuts);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  PatchSummary& s = summary_;
  const double n = static_cast<double>(++s.updates);
  s.particles = c.active + c.fixed + c.stored;
  s.active_mean += (static_cast<double>(c.active) - s.active_mean) / n;
  s.fixed_mean += (static_cast<double>(c.fixed) - s.fixed_mean) / n;
  s.stored_mean += (static_cast<double>(c.stored) - s.stored_mean) / n;
  s.active_max = std::max(s.active_max, c.active);
  s.reactivated += c.reactivated;
  s.cut_moves += move_cuts ? 1 : 0;
  s.seconds += seconds;
  if (csv.is_open())
    csv << step << ',' << t << ',' << box.x_lo << ',' << box.x_hi << ',' << c.active << ',' << c.fixed << ','
        << c.stored << ',' << c.reactivated << ',' << (move_cuts ? 1 : 0) << ',' << seconds << '\n';
  return c;
}

}  // namespace trackcosim::terrain
