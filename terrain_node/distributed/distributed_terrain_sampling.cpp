// Measurements of the terrain as it is now, for the settle statistics (settle_statistics.h): its
// spheres in the world frame, the dynamic bodies' count and mass, the last step's contacts. Each
// dynamic body and each contact is counted by exactly one rank, and the sums are integers or
// exact fixed-point sums, so the totals are the same bits on any rank count. And each rank's
// piece of a snapshot, in which every particle appears once, by the same rule of ownership.

#include "comm/gather.h"
#include "terrain_node/distributed/body_records.h"
#include "terrain_node/distributed/distributed_terrain_state.h"

namespace trackcosim::terrain {

std::vector<WorldSphere> DistributedTerrain::owned_spheres() const {
  const gpu::BodySet& s = held_bodies();
  std::vector<WorldSphere> out;
  for (std::size_t k = 0; k < s.sphere_radius.size(); ++k) {
    const std::uint32_t b = s.sphere_body[k];
    // The bed's grains only: a config's `bodies` (a tool, an anchor) are not part of its surface.
    if (!dynamic(s, b) || held_->local.holder[b] != kOwnedHere || !config_particle(s.gid[b])) continue;
    const Quat q{s.qw[b], s.qx[b], s.qy[b], s.qz[b]};
    const Vec3 offset = rotate(q, Vec3{s.sphere_ox[k], s.sphere_oy[k], s.sphere_oz[k]});
    out.push_back({position(s, b) + offset, s.sphere_radius[k]});
  }
  return out;
}

SnapshotPiece DistributedTerrain::snapshot_piece() const {
  const gpu::BodySet& s = held_bodies();
  std::vector<std::uint32_t> mine;
  for (std::uint32_t i = 0; i < s.size(); ++i) {
    const int holder = held_->local.holder[i];
    // A fixed particle of a moving patch is held by every rank; the owner of its position shows it.
    const bool fixed_particle = holder == kOnEveryRank && config_particle(s.gid[i]) &&
                                decomposition_.owner_of(position(s, i)) == rank_;
    if (holder == kOwnedHere || fixed_particle) mine.push_back(i);
  }
  // The store stays out of the solver on this rank; the snapshot shows the whole bed, so it is here too.
  const BodyRecords& store = held_->stored;
  SnapshotPiece piece{merge_bodies(s, mine, {&store}), {}};
  piece.roles.reserve(piece.bodies.size());
  for (std::size_t i = 0; i < piece.bodies.size(); ++i)
    piece.roles.push_back(piece.bodies.motion[i] == gpu::Motion::Fixed ? PatchRole::Fixed
                          : find_record(store, piece.bodies.gid[i]) != nullptr ? PatchRole::Stored
                                                                               : PatchRole::Active);
  return piece;
}

namespace {

struct ForceShare {
  gpu::GlobalId gid;
  real force;
};

}  // namespace

std::vector<real> DistributedTerrain::contact_force_sums(const SnapshotPiece& piece) const {
  const gpu::BodySet& s = held_bodies();
  // The rank whose snapshot_piece shows body b of the held set, or -1 (walls, shoe proxies).
  const auto shown_by = [&](std::uint32_t b) {
    const int holder = held_->local.holder[b];
    if (holder == kOwnedHere) return rank_;
    if (holder >= 0) return neighbours_[static_cast<std::size_t>(holder)];
    return config_particle(s.gid[b]) ? decomposition_.owner_of(position(s, b)) : -1;
  };
  std::vector<std::vector<ForceShare>> shares(static_cast<std::size_t>(group_.size()));
  if (held_->stepped) {
    const gpu::ContactImpulses impulses = system_->contact_impulses();
    const gpu::ContactList& c = impulses.contacts;
    const real h = system_->settings().step_size;
    for (std::uint32_t i = 0; i < c.size(); ++i) {
      if (!held_->solved.here(i)) continue;
      const real force = length(impulses.impulse_on_b[i]) / h;
      for (const gpu::GlobalId gid : {c.gid_a[i], c.gid_b[i]}) {
        const std::uint32_t b = index_of(s.gid, gid);
        if (b == s.size() || s.gid[b] != gid) continue;
        if (const int r = shown_by(b); r >= 0) shares[static_cast<std::size_t>(r)].push_back({gid, force});
      }
    }
  }
  // Exact sums: the shares arrive in an order that depends on the rank count, the totals do not.
  comm::ExactSums sums(piece.bodies.size());
  for (const ForceShare& share : comm::all_to_all(group_, shares)) {
    const std::uint32_t k = index_of(piece.bodies.gid, share.gid);
    if (k < piece.bodies.size() && piece.bodies.gid[k] == share.gid) sums.add(k, share.force);
  }
  std::vector<real> out(piece.bodies.size());
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = sums.total_here(k);
  return out;
}

DynamicTotals DistributedTerrain::dynamic_totals() const {
  const gpu::BodySet& s = held_bodies();
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
  const gpu::BodySet& s = held_bodies();
  if (held_->stepped) {
    const gpu::ContactImpulses impulses = system_->contact_impulses();
    const gpu::ContactList& c = impulses.contacts;
    for (std::uint32_t i = 0; i < c.size(); ++i) {
      if (!held_->solved.here(i)) continue;
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
