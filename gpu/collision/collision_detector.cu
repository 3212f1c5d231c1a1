// The collision pass: upload, grid, stages 1-9, static shapes, canonical order, reduction.
// Each call below is one stage group; the stage list itself is in collision_stage.h.

#include "gpu/collision/collision_detector.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/reduce.h>
#include <thrust/transform_reduce.h>

#include "gpu/collision/detail/bin_contacts.h"
#include "gpu/collision/detail/contact_ordering.h"
#include "gpu/collision/detail/scene_validation.h"
#include "gpu/collision/detail/sphere_binning.h"
#include "gpu/collision/detail/static_shape_contacts.h"
#include "gpu/memory/execution.h"

namespace trackcosim::gpu {

struct CollisionDetector::Impl {
  detail::DeviceScene scene;
  detail::BinnedSpheres bins;
  detail::DeviceContacts raw_contacts;
  detail::OrderingBuffers ordering;
  thrust::device_vector<std::uint64_t> offsets;
  detail::DeviceContacts contacts;  ///< the last pass's result, canonical and reduced
};

namespace {

/// Bounds of all padded sphere boxes, the radius sum for the automatic bin size, and how many
/// centres are not finite (a min/max would drop a NaN silently).
struct SphereExtent {
  real lo[3], hi[3], radius_sum;
  std::uint64_t non_finite;
};

struct SphereToExtent {
  detail::SphereView spheres;
  real half_envelope;
  TRACKCOSIM_HD SphereExtent operator()(std::size_t i) const {
    const Vec3 c = spheres.center(i);
    const real h = detail::bin_half_size(c, spheres.radius[i], half_envelope);
    // x - x is 0 for a finite x and NaN for an infinite or NaN one (no -ffast-math here).
    const bool finite = c.x - c.x == 0 && c.y - c.y == 0 && c.z - c.z == 0;
    return {{c.x - h, c.y - h, c.z - h}, {c.x + h, c.y + h, c.z + h}, spheres.radius[i], finite ? 0u : 1u};
  }
};

struct MergeExtent {
  TRACKCOSIM_HD SphereExtent operator()(const SphereExtent& a, const SphereExtent& b) const {
    SphereExtent m;
    for (int k = 0; k < 3; ++k) {
      m.lo[k] = a.lo[k] < b.lo[k] ? a.lo[k] : b.lo[k];
      m.hi[k] = a.hi[k] > b.hi[k] ? a.hi[k] : b.hi[k];
    }
    m.radius_sum = a.radius_sum + b.radius_sum;
    m.non_finite = a.non_finite + b.non_finite;
    return m;
  }
};

/// Cubic bins of the requested size, widened along an axis only where 2^21 bins would not span
/// it. Bin faces sit at whole multiples of the bin size in world coordinates, not relative to
/// the spheres' corner, so the lattice does not shift as particles move and every rank of a
/// decomposed terrain can share it.
detail::BinGrid make_grid(const SphereExtent& e, std::size_t spheres, const CollisionSettings& settings) {
  const real mean_diameter = 2 * e.radius_sum / static_cast<real>(spheres);
  const real requested = settings.bin_size > 0 ? settings.bin_size : settings.bin_size_factor * mean_diameter;
  detail::BinGrid grid{};
  for (int a = 0; a < 3; ++a) {
    const real widest = (e.hi[a] - e.lo[a]) / static_cast<real>(detail::kMaxBinsPerAxis - 4);
    const real size = std::max(requested, widest);
    grid.origin[a] = std::floor(e.lo[a] / size) * size;
    grid.inv_bin_size[a] = 1 / size;
    grid.bins[a] = std::min<std::uint64_t>(
        detail::kMaxBinsPerAxis, static_cast<std::uint64_t>(std::floor((e.hi[a] - grid.origin[a]) / size)) + 1);
  }
  return grid;
}

}  // namespace

double CollisionStats::total_seconds() const {
  return std::accumulate(stage_seconds.begin(), stage_seconds.end(), 0.0);
}

CollisionDetector::CollisionDetector(CollisionSettings settings)
    : settings_(settings), impl_(std::make_unique<Impl>()) {
  detail::validate_settings(settings_);
}

CollisionDetector::~CollisionDetector() = default;

ContactList CollisionDetector::detect(const ShapeScene& scene) {
  load(scene);
  detect_loaded();
  return contacts();
}

void CollisionDetector::load(const ShapeScene& scene) {
  detail::validate_scene(scene);
  impl_->scene.upload(scene);
}

std::size_t CollisionDetector::detect_loaded() { return detect_on_device(impl_->scene); }

ContactList CollisionDetector::contacts() const { return impl_->contacts.download(); }

const detail::DeviceContacts& CollisionDetector::device_contacts() const { return impl_->contacts; }

std::size_t CollisionDetector::detect_on_device(const detail::DeviceScene& scene) {
  stats_ = CollisionStats{};
  detail::StageClock clock(stats_.stage_seconds);
  Impl& m = *impl_;
  m.raw_contacts.resize(0);
  const std::size_t n = scene.sphere_count();
  const real half_envelope = settings_.envelope / 2;

  if (n > 0) {
    const auto ids = thrust::counting_iterator<std::size_t>(0);
    constexpr real inf = std::numeric_limits<real>::infinity();
    SphereExtent extent{};
    clock.run(CollisionStage::CountBinsPerShape, [&] {
      extent = thrust::transform_reduce(detail::par(), ids, ids + n, SphereToExtent{scene.spheres(), half_envelope},
                                        SphereExtent{{inf, inf, inf}, {-inf, -inf, -inf}, 0, 0}, MergeExtent{});
    });
    // A centre a step made non-finite: name it (a host copy of the scene, only then).
    bool bounded = extent.non_finite == 0;
    for (int a = 0; a < 3; ++a) bounded = bounded && std::isfinite(extent.lo[a]) && std::isfinite(extent.hi[a]);
    if (!bounded) {
      detail::validate_scene(scene.download());
      throw std::invalid_argument("collision: the spheres' bounding box is not finite");
    }
    const detail::BinGrid grid = make_grid(extent, n, settings_);
    for (int a = 0; a < 3; ++a) stats_.bins_per_axis[a] = grid.bins[a];
    stats_.bin_size = {1 / grid.inv_bin_size[0], 1 / grid.inv_bin_size[1], 1 / grid.inv_bin_size[2]};
    stats_.grid_origin = {grid.origin[0], grid.origin[1], grid.origin[2]};

    detail::bin_spheres(scene, grid, half_envelope, m.bins, clock);
    stats_.bin_shape_pairs = m.bins.entry_bin.size();
    stats_.touched_bins = m.bins.touched_bin.size();
    stats_.active_bins = m.bins.active_bin.size();
    detail::find_bin_contacts(scene, grid, m.bins, settings_.envelope, m.offsets, m.raw_contacts, clock);
    detail::find_static_shape_contacts(scene, settings_.envelope, m.offsets, m.raw_contacts, clock);
  }

  stats_.contacts_before_reduction =
      detail::order_and_reduce(m.raw_contacts, settings_.max_contacts_per_body_pair, m.ordering, m.contacts, clock);
  stats_.contacts = m.contacts.size();
  return m.contacts.size();
}

}  // namespace trackcosim::gpu
