#pragma once
// Broad + narrow phase collision detection by spatial binning, one source for CUDA and OpenMP.
// See collision_stage.h for the stages and docs/collision.md for the method.
//
// The header is plain C++ (no Thrust types) so that host code compiled by g++ can use the CUDA
// build of the library; device buffers live behind the pimpl and are reused between calls.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "gpu/collision/collision_stage.h"
#include "gpu/collision/contact_list.h"
#include "gpu/collision/shape_scene.h"

namespace trackcosim::gpu {

namespace detail {
struct DeviceScene;
struct DeviceContacts;
}  // namespace detail

/// The automatic bin edge in mean sphere diameters, per build. CPU: 2 (20-25 spheres listed per
/// bin in a dense bed; fewer entries to sort), 1.57x faster than 1 at 10^6 spheres in
/// bench/collision. CUDA: 1 (4-5 per bin, as in the GPU papers: more, lighter threads), 15-20%
/// faster than 2 on an H100 and an H200 (docs/collision.md, "On a GPU"). The list of contacts
/// does not depend on it.
#if defined(TRACKCOSIM_CUDA_BUILD)
inline constexpr real kDefaultBinSizeFactor = 1.0;
#else
inline constexpr real kDefaultBinSizeFactor = 2.0;
#endif

struct CollisionSettings {
  /// Pairs whose signed distance is <= envelope are reported (near-contacts for the solver).
  real envelope = 0;
  /// Bin edge length; 0 selects bin_size_factor x the mean sphere diameter.
  real bin_size = 0;
  real bin_size_factor = kDefaultBinSizeFactor;
  /// At most this many contacts per body pair (compound bodies); 0 keeps all.
  std::uint32_t max_contacts_per_body_pair = 8;
};

/// What the last pass did; all times in seconds.
struct CollisionStats {
  std::array<double, kCollisionStageCount> stage_seconds{};
  Vec3 bin_size{0, 0, 0};
  Vec3 grid_origin{0, 0, 0};             ///< a bin corner; faces at origin + k * bin_size
  std::array<std::uint64_t, 3> bins_per_axis{0, 0, 0};
  std::uint64_t bin_shape_pairs = 0;     ///< (bin, sphere) entries written in stage 3
  std::uint64_t touched_bins = 0;        ///< distinct bins with >= 1 sphere
  std::uint64_t active_bins = 0;         ///< bins with >= 2 spheres
  std::uint64_t contacts_before_reduction = 0;
  std::uint64_t contacts = 0;
  double total_seconds() const;
};

class CollisionDetector {
 public:
  explicit CollisionDetector(CollisionSettings settings = {});
  ~CollisionDetector();
  CollisionDetector(const CollisionDetector&) = delete;
  CollisionDetector& operator=(const CollisionDetector&) = delete;

  /// Finds all contacts of the scene: load(), detect_loaded(), contacts(). Throws
  /// std::invalid_argument naming the first bad shape (non-finite coordinate, radius <= 0, zero
  /// plane normal, box extent <= 0). An empty scene gives an empty list.
  ContactList detect(const ShapeScene& scene);

  /// The resident path, in three steps. load() validates the scene and copies it to the
  /// device; detect_loaded() finds its contacts and keeps them in device memory (what a
  /// simulation that also keeps its bodies there wants: nothing crosses to the host but a few
  /// counts); contacts() copies the last pass's list to the host.
  void load(const ShapeScene& scene);
  std::size_t detect_loaded();
  ContactList contacts() const;

  /// For gpu/ itself: detection on a scene already in device memory (the bodies' shapes placed
  /// by a kernel), and the contacts found, in device memory. A non-finite sphere centre is
  /// refused as in detect(). Returns the number of contacts.
  std::size_t detect_on_device(const detail::DeviceScene& scene);
  const detail::DeviceContacts& device_contacts() const;

  const CollisionStats& last_stats() const { return stats_; }
  const CollisionSettings& settings() const { return settings_; }

 private:
  struct Impl;
  CollisionSettings settings_;
  CollisionStats stats_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace trackcosim::gpu
