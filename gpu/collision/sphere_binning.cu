// Stages 1-6 of the spatial-binning broad phase (Heyn 2009, sec. 3.1.1; Tasora-Negrut sec. 4.2.1).
//
// The thesis sorts the per-bin counts to push empty bins to the end (its stage 7); we get the
// same effect with a stream compaction, and we never allocate an array indexed by bin id, so
// the grid may have 2^63 bins.

#include "gpu/collision/detail/sphere_binning.h"
#include "gpu/memory/execution.h"

#include <stdexcept>
#include <string>

#include <thrust/copy.h>
#include <thrust/extrema.h>
#include <thrust/for_each.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/tuple.h>

namespace trackcosim::gpu::detail {
namespace {

// Stage 1: number of bins the sphere's (envelope-padded) box touches.
struct CountBinsPerSphere {
  SphereView spheres;
  BinGrid grid;
  real half_envelope;

  TRACKCOSIM_HD std::uint64_t operator()(SphereIndex i) const {
    const Vec3 c = spheres.center(i);
    return bin_count(sphere_bin_range(grid, c, bin_half_size(c, spheres.radius[i], half_envelope)));
  }
};

// Stage 3: the (bin key, sphere) pairs, written at the sphere's scanned offset.
struct WriteBinSpherePairs {
  SphereView spheres;
  BinGrid grid;
  real half_envelope;
  const std::uint64_t* offset;
  BinKey* entry_bin;
  SphereIndex* entry_sphere;

  TRACKCOSIM_HD void operator()(SphereIndex i) const {
    const Vec3 c = spheres.center(i);
    const BinRange r = sphere_bin_range(grid, c, bin_half_size(c, spheres.radius[i], half_envelope));
    std::uint64_t out = offset[i];
    for (std::uint64_t iz = r.lo[2]; iz <= r.hi[2]; ++iz)
      for (std::uint64_t iy = r.lo[1]; iy <= r.hi[1]; ++iy)
        for (std::uint64_t ix = r.lo[0]; ix <= r.hi[0]; ++ix, ++out) {
          entry_bin[out] = BinGrid::key(ix, iy, iz);
          entry_sphere[out] = i;
        }
  }
};

/// A sphere far larger than the bins would write millions of entries (and exhaust memory long
/// before it finishes); refuse it with a message that says what to change instead.
void reject_oversized_spheres(const DeviceScene& scene, const BinGrid& grid,
                              const thrust::device_vector<std::uint64_t>& bins_per_sphere, std::size_t n) {
  const auto largest = thrust::max_element(par(), bins_per_sphere.begin(), bins_per_sphere.begin() + n);
  const std::uint64_t bins = read_element(bins_per_sphere, static_cast<std::size_t>(largest - bins_per_sphere.begin()));
  if (bins <= kMaxBinsPerSphere) return;
  const std::size_t i = largest - bins_per_sphere.begin();
  throw std::invalid_argument(
      "collision: sphere " + std::to_string(i) + " (body gid " + std::to_string(read_element(scene.gid, i)) +
      ", radius " + std::to_string(read_element(scene.radius, i)) + ") spans " + std::to_string(bins) + " bins of edge " +
      std::to_string(1 / grid.inv_bin_size[0]) + " m (at most " + std::to_string(kMaxBinsPerSphere) +
      "); set a larger bin_size, or model it as a box or a sphere set of smaller spheres");
}

struct HoldsTwoOrMore {
  TRACKCOSIM_HD bool operator()(std::uint32_t count) const { return count >= 2; }
};

}  // namespace

void bin_spheres(const DeviceScene& scene, const BinGrid& grid, real half_envelope, BinnedSpheres& out,
                 StageClock& clock) {
  const std::size_t n = scene.sphere_count();
  const auto sphere_ids = thrust::counting_iterator<SphereIndex>(0);
  const SphereView spheres = scene.spheres();
  auto& offset = out.sphere_entry_offset;

  clock.run(CollisionStage::CountBinsPerShape, [&] {
    offset.resize(n + 1);
    thrust::transform(par(), sphere_ids, sphere_ids + n, offset.begin(), CountBinsPerSphere{spheres, grid, half_envelope});
    write_element(offset, n, std::uint64_t{0});
  });
  reject_oversized_spheres(scene, grid, offset, n);

  std::uint64_t entries = 0;
  clock.run(CollisionStage::ScanBinCounts, [&] {
    thrust::exclusive_scan(par(), offset.begin(), offset.end(), offset.begin(), std::uint64_t{0});
    entries = read_element(offset, n);
  });

  clock.run(CollisionStage::WriteBinShapePairs, [&] {
    out.entry_bin.resize(entries);
    out.entry_sphere.resize(entries);
    thrust::for_each(par(), sphere_ids, sphere_ids + n,
                     WriteBinSpherePairs{spheres, grid, half_envelope, thrust::raw_pointer_cast(offset.data()),
                                         thrust::raw_pointer_cast(out.entry_bin.data()),
                                         thrust::raw_pointer_cast(out.entry_sphere.data())});
  });

  // Stable, so each bin lists its spheres in index order whatever the thread count.
  clock.run(CollisionStage::SortByBin, [&] {
    thrust::stable_sort_by_key(par(), out.entry_bin.begin(), out.entry_bin.end(), out.entry_sphere.begin());
  });

  clock.run(CollisionStage::FindBinStarts, [&] {
    out.touched_bin.resize(entries);
    out.touched_count.resize(entries);
    const auto ends = thrust::reduce_by_key(par(), out.entry_bin.begin(), out.entry_bin.end(),
                                            thrust::constant_iterator<std::uint32_t>(1), out.touched_bin.begin(),
                                            out.touched_count.begin());
    const std::size_t touched = ends.first - out.touched_bin.begin();
    out.touched_bin.resize(touched);
    out.touched_count.resize(touched);
    out.touched_start.resize(touched);
    thrust::exclusive_scan(par(), out.touched_count.begin(), out.touched_count.end(), out.touched_start.begin(),
                           std::uint64_t{0});
  });

  clock.run(CollisionStage::DropSparseBins, [&] {
    const std::size_t touched = out.touched_bin.size();
    out.active_bin.resize(touched);
    out.active_count.resize(touched);
    out.active_start.resize(touched);
    auto in = thrust::make_zip_iterator(
        thrust::make_tuple(out.touched_bin.begin(), out.touched_count.begin(), out.touched_start.begin()));
    auto dst = thrust::make_zip_iterator(
        thrust::make_tuple(out.active_bin.begin(), out.active_count.begin(), out.active_start.begin()));
    const auto end = thrust::copy_if(par(), in, in + touched, out.touched_count.begin(), dst, HoldsTwoOrMore{});
    const std::size_t active = end - dst;
    out.active_bin.resize(active);
    out.active_count.resize(active);
    out.active_start.resize(active);
  });
}

}  // namespace trackcosim::gpu::detail
