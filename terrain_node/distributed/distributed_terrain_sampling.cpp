// Measurements of the terrain as it is now, for the settle statistics (settle_statistics.h): its
// spheres in the world frame, the dynamic bodies' count and mass, the last step's contacts. Each
// dynamic body and each contact is counted by exactly one rank, and the sums are integers or
// exact fixed-point sums, so the totals are the same bits on any rank count.

#include "comm/gather.h"
#include "terrain_node/distributed/body_records.h"
#include "terrain_node/distributed/distributed_terrain_state.h"

namespace trackcosim::terrain {

std::vector<WorldSphere> DistributedTerrain::owned_spheres() const {
  const gpu::BodySet& s = held_->set;
  std::vector<WorldSphere> out;
  for (std::size_t k = 0; k < s.sphere_radius.size(); ++k) {
    const std::uint32_t b = s.sphere_body[k];
    if (!dynamic(s, b) || held_->local.holder[b] != kOwnedHere) continue;
    const Quat q{s.qw[b], s.qx[b], s.qy[b], s.qz[b]};
    const Vec3 offset = rotate(q, Vec3{s.sphere_ox[k], s.sphere_oy[k], s.sphere_oz[k]});
    out.push_back({position(s, b) + offset, s.sphere_radius[k]});
  }
  return out;
}

DynamicTotals DistributedTerrain::dynamic_totals() const {
  const gpu::BodySet& s = held_->set;
  std::uint64_t bodies = 0;
  comm::ExactSum mass;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (dynamic(s, i) && held_->local.holder[i] == kOwnedHere) {
      ++bodies;
      mass.add(s.mass[i]);
    }
  return {group_.sum(bodies), mass.total(group_)};
}

ContactEnds DistributedTerrain::contact_ends(real gap) const {
  std::uint64_t ends[2] = {0, 0};  // touching, loaded
  const gpu::BodySet& s = held_->set;
  if (held_->contacts != nullptr) {
    const gpu::ContactImpulses impulses = system_->contact_impulses();
    const gpu::ContactList& c = impulses.contacts;
    for (std::size_t i = 0; i < c.size() && i < held_->solve_here.size(); ++i) {
      if (held_->solve_here[i] == 0) continue;
      const std::uint64_t n = (dynamic(s, index_of(s.gid, c.gid_a[i])) ? 1 : 0) +
                              (dynamic(s, index_of(s.gid, c.gid_b[i])) ? 1 : 0);
      if (c.distance[i] <= gap) ends[0] += n;
      if (impulses.gamma_n[i] > 0) ends[1] += n;
    }
  }
  group_.sum_in_place(ends);
  return {ends[0], ends[1]};
}

}  // namespace trackcosim::terrain
