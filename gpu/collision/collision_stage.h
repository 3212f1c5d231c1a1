#pragma once
// The stages of one collision-detection pass, in order of execution. The first nine are the
// spatial-binning method of Heyn (2009, ch. 3) and Tasora-Negrut (sec. 4.2.1); the last four
// add what the terrain needs on top: contacts with static planes/boxes, the canonical order
// that makes results thread-count independent, the per-body-pair contact limit, and the
// kept contacts gathered in order.
// One enum gives the timers, the benchmark columns and the docs from one place.

#include <array>
#include <cstddef>
#include <string_view>

namespace trackcosim::gpu {

enum class CollisionStage : std::size_t {
  CountBinsPerShape,     // 1: bins touched by each sphere's AABB
  ScanBinCounts,         // 2: prefix sum -> write offsets
  WriteBinShapePairs,    // 3: (bin key, sphere) pairs
  SortByBin,             // 4: sort pairs by bin key (groups each bin's spheres)
  FindBinStarts,         // 5: first pair and count of every touched bin
  DropSparseBins,        // 6: keep bins touched by >= 2 spheres
  CountContactsPerBin,   // 7: narrow phase, midpoint rule, count only
  ScanContactCounts,     // 8: prefix sum -> write offsets
  WriteContacts,         // 9: narrow phase again, write contact data
  StaticShapeContacts,   // spheres vs planes and boxes (never binned)
  CanonicalSort,         // order by (gid_a, gid_b, shape_a, shape_b)
  BodyPairReduction,     // at most K contacts per body pair, spread out
  GatherKept,            // gather the kept contacts in order (they stay on the device)
  Count
};

inline constexpr std::size_t kCollisionStageCount = static_cast<std::size_t>(CollisionStage::Count);

inline constexpr std::array<std::string_view, kCollisionStageCount> kCollisionStageNames{
    "count_bins",  "scan_bins",   "write_pairs",    "sort_by_bin",   "bin_starts",  "drop_sparse",
    "count_pairs", "scan_pairs",  "write_contacts", "static_shapes", "canonical_sort", "pair_reduction",
    "gather_kept"};

}  // namespace trackcosim::gpu
