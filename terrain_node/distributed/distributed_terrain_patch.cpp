// DistributedTerrain::apply_patch: the moving patch of Heyn's thesis (6.2.2). "The active bodies
// are scanned first, and the inactive bodies are scanned second": each rank sorts the particles
// it owns, the fixed ones every rank holds (each taken by the rank that owns its position) and
// its store by the box, then one hand-over puts every body where it belongs. The terrain's
// disturbed state persists: a particle leaves the solver with its pose and comes back with it.
//
// Why fixed particles are held by every rank: the layer is thin (a ring one diameter thick
// around the box), every rank already keeps the walls that way, and the contact ownership and
// ghost logic then need nothing new. Stored particles are partitioned like the owned bodies
// (by the owner of their position), so a checkpoint or a re-activation needs no broadcast.

#include <algorithm>

#include "comm/gather.h"
#include "terrain_node/distributed/distributed_terrain_state.h"

namespace trackcosim::terrain {
namespace {

/// Every rank's records, concatenated in rank order, on every rank.
BodyRecords gather_everywhere(const comm::RankGroup& group, const BodyRecords& mine) {
  const auto ranks = static_cast<std::size_t>(group.size());
  const std::vector<std::vector<BodyRecord>> bodies(ranks, mine.bodies);
  const std::vector<std::vector<SphereRecord>> spheres(ranks, mine.spheres);
  BodyRecords all;
  all.bodies = comm::all_to_all(group, bodies);
  all.spheres = comm::all_to_all(group, spheres);
  return all;
}

}  // namespace

PatchCounts DistributedTerrain::apply_patch(const PatchBox& box, bool move_cuts) {
  const gpu::BodySet& cur = held_bodies();
  const SphereIndex spheres(cur);
  Handover h;
  std::uint64_t counts[2] = {0, 0};  // changes of class, particles out of a store
  auto append = [&](BodyRecords& to, std::uint32_t i, gpu::Motion motion) {
    to.append(cur, spheres, i);
    set_at_rest(to.bodies.back(), motion);
  };
  for (std::uint32_t i = 0; i < cur.size(); ++i) {
    const int holder = held_->local.holder[i];
    if (holder >= 0) continue;  // a ghost: its owner sorts it
    const bool particle = config_particle(cur.gid[i]);
    if (holder == kOnEveryRank && !particle) {  // walls, shoe proxies
      h.everywhere.push_back(i);
      continue;
    }
    if (!particle) {  // a config's dynamic `bodies` entry (an anchor): always simulated, as it is
      h.active.append(cur, spheres, i);
      continue;
    }
    const Vec3 p = position(cur, i);
    const PatchRole role = box.role_of(p);
    if (holder == kOwnedHere) {
      if (role == PatchRole::Active) {
        h.active.append(cur, spheres, i);
        continue;
      }
      ++counts[0];
      if (role == PatchRole::Fixed) append(h.fixed, i, gpu::Motion::Fixed);
      else append(h.stored, i, gpu::Motion::Dynamic);
      continue;
    }
    // A fixed particle, the same on every rank: the rank owning its position takes it.
    if (role == PatchRole::Fixed) {
      h.everywhere.push_back(i);
      continue;
    }
    if (decomposition_.owner_of(p) != rank_) continue;
    ++counts[0];
    append(role == PatchRole::Active ? h.active : h.stored, i, gpu::Motion::Dynamic);
  }
  const BodyRecords& store = held_->stored;
  for (std::size_t k = 0, first = 0; k < store.bodies.size(); first += store.bodies[k++].sphere_count) {
    const BodyRecord& r = store.bodies[k];
    const PatchRole role = box.role_of({r.position[0], r.position[1], r.position[2]});
    BodyRecords& to = role == PatchRole::Active ? h.active : role == PatchRole::Fixed ? h.fixed : h.stored;
    to.append(store, k, first);
    if (role == PatchRole::Stored) continue;
    ++counts[0];
    ++counts[1];
    set_at_rest(to.bodies.back(), role == PatchRole::Active ? gpu::Motion::Dynamic : gpu::Motion::Fixed);
  }
  group_.sum_in_place(counts);
  PatchCounts out;
  out.reactivated = counts[1];
  if (counts[0] > 0 || move_cuts) {
    h.fixed = gather_everywhere(group_, h.fixed);
    hand_over(std::move(h), move_cuts && balance_);
  }

  std::uint64_t totals[2] = {owned_count(), held_->stored.bodies.size()};
  group_.sum_in_place(totals);
  out.active = totals[0];
  out.stored = totals[1];
  for (std::size_t i = 0; i < held_->set.size(); ++i)
    if (held_->local.holder[i] == kOnEveryRank &&
        config_particle(held_->set.gid[i]))
      ++out.fixed;
  return out;
}

}  // namespace trackcosim::terrain
