// Stages 7-9 (Heyn 2009, sec. 3.1.1.8-10): one thread per active bin tests all sphere pairs of
// its bin, first to count the contacts it owns, then, after a scan gives each bin its output
// offset, to write them. Testing twice is cheaper than writing through atomics and keeps the
// output order fixed.
//
// Ownership (the midpoint rule): a pair that shares several bins is reported by exactly one of
// them. The thesis takes the bin holding the midpoint of the two contact points; that midpoint
// can fall outside a small sphere nested in a big one, so we clamp the midpoint's bin
// coordinates into the bins both spheres touch. Every bin that sees the pair computes the same
// clamped bin, and it is one where both spheres are listed.

#include "gpu/collision/detail/bin_contacts.h"

#include "gpu/collision/detail/count_scan_write.h"

namespace trackcosim::gpu::detail {
namespace {

struct BinPairVisitor {
  SphereView spheres;
  BinGrid grid;
  real envelope;
  const SphereIndex* entry_sphere;
  const BinKey* bin;
  const std::uint64_t* start;
  const std::uint32_t* count;

  /// The clamped-midpoint rule. Both spheres are listed in this bin, so on any axis where the
  /// midpoint already falls in this bin's slab the clamp cannot move it elsewhere; the bin
  /// ranges (twelve floor() calls) are needed only on an axis where it falls outside.
  TRACKCOSIM_HD bool owns_pair(BinKey key, Vec3 ca, real ra, Vec3 cb, real rb, const ContactGeometry& g) const {
    const Vec3 mid = real(0.5) * (g.point_a + g.point_b);
    const real m[3] = {mid.x, mid.y, mid.z};
    const real c[2][3] = {{ca.x, ca.y, ca.z}, {cb.x, cb.y, cb.z}};
    real half[2] = {-1, -1};  // the spheres' padded half sizes, computed on first need
    for (int axis = 0; axis < 3; ++axis) {
      const std::uint64_t here = BinGrid::key_axis(key, axis);
      std::uint64_t k = grid.axis_bin(m[axis], axis);
      if (k == here) continue;
      if (half[0] < 0) {
        const real half_envelope = real(0.5) * envelope;
        half[0] = bin_half_size(ca, ra, half_envelope);
        half[1] = bin_half_size(cb, rb, half_envelope);
      }
      const std::uint64_t lo_a = grid.axis_bin(c[0][axis] - half[0], axis);
      const std::uint64_t lo_b = grid.axis_bin(c[1][axis] - half[1], axis);
      const std::uint64_t hi_a = grid.axis_bin(c[0][axis] + half[0], axis);
      const std::uint64_t hi_b = grid.axis_bin(c[1][axis] + half[1], axis);
      const std::uint64_t lo = lo_a > lo_b ? lo_a : lo_b;
      const std::uint64_t hi = hi_a < hi_b ? hi_a : hi_b;
      k = k < lo ? lo : (k > hi ? hi : k);
      if (k != here) return false;
    }
    return true;
  }

  /// Calls on_contact(gid_a, shape_a, gid_b, shape_b, geometry) for every pair this bin owns.
  template <class OnContact>
  TRACKCOSIM_HD void visit(std::size_t active_bin, OnContact&& on_contact) const {
    const BinKey key = bin[active_bin];
    const SphereIndex* members = entry_sphere + start[active_bin];
    const std::uint32_t n = count[active_bin];
    for (std::uint32_t p = 0; p < n; ++p) {
      const SphereIndex i = members[p];
      const Vec3 ci = spheres.center(i);
      const real ri = spheres.radius[i];
      const GlobalId gi = spheres.gid[i];
      for (std::uint32_t q = p + 1; q < n; ++q) {
        const SphereIndex j = members[q];
        const Vec3 cj = spheres.center(j);
        const real rj = spheres.radius[j];
        // Cheap rejection on squared distance first (most pairs in a bin are apart), with a
        // margin so it never rejects a pair the exact test below would keep.
        const Vec3 d = cj - ci;
        const real reach = ri + rj + envelope;
        if (dot(d, d) > reach * reach * real(1.0000001)) continue;
        const GlobalId gj = spheres.gid[j];
        if (gi == gj) continue;  // a sphere set never collides with itself
        const bool i_first = precedes(gi, spheres.shape[i], gj, spheres.shape[j]);
        const SphereIndex ia = i_first ? i : j, ib = i_first ? j : i;
        const Vec3 ca = i_first ? ci : cj, cb = i_first ? cj : ci;
        const real ra = i_first ? ri : rj, rb = i_first ? rj : ri;
        const ContactGeometry g = sphere_sphere(ca, ra, cb, rb);
        if (!(g.distance <= envelope)) continue;
        if (!owns_pair(key, ca, ra, cb, rb, g)) continue;
        on_contact(spheres.gid[ia], spheres.shape[ia], spheres.gid[ib], spheres.shape[ib], g);
      }
    }
  }
};

}  // namespace

void find_bin_contacts(const DeviceScene& scene, const BinGrid& grid, const BinnedSpheres& bins, real envelope,
                       thrust::device_vector<std::uint64_t>& offset, DeviceContacts& out, StageClock& clock) {
  const BinPairVisitor visitor{scene.spheres(),
                               grid,
                               envelope,
                               thrust::raw_pointer_cast(bins.entry_sphere.data()),
                               thrust::raw_pointer_cast(bins.active_bin.data()),
                               thrust::raw_pointer_cast(bins.active_start.data()),
                               thrust::raw_pointer_cast(bins.active_count.data())};

  append_visited_contacts(bins.active_bin.size(), visitor, offset, out, clock,
                          {CollisionStage::CountContactsPerBin, CollisionStage::ScanContactCounts,
                           CollisionStage::WriteContacts});
}

}  // namespace trackcosim::gpu::detail
