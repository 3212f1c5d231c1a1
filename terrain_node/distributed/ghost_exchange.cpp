// Stage 1 of the terrain step: the displacement check, the classification of the bodies near
// this rank's faces, migration and the ghost refresh (ghost_exchange.h).

#include "terrain_node/distributed/ghost_exchange.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "domain/migration_plan.h"
#include "terrain_node/distributed/distributed_terrain_state.h"

namespace trackcosim::terrain {

namespace {

void check_displacement(const gpu::RigidBodySystem& system, real max_displacement) {
  const gpu::RigidBodySystem::FastestBody fastest = system.fastest_dynamic_body();
  if (fastest.index == system.body_count()) return;
  const real moved = std::sqrt(fastest.speed_squared) * system.settings().step_size;
  if (!(moved > max_displacement)) return;
  const gpu::BodyState b = system.body_state(fastest.index);
  throw std::runtime_error("body gid " + std::to_string(b.gid) + " at (" + std::to_string(b.position.x) + ", " +
                           std::to_string(b.position.y) + ", " + std::to_string(b.position.z) + ") moved " +
                           std::to_string(moved) + " m in one step, more than domain.max_displacement = " +
                           std::to_string(max_displacement) + " m: raise domain.max_displacement or lower step_size");
}

/// Per held body, 1 if it is dynamic and near a face of this rank's box or beyond it, or a
/// ghost; the states of those are read from the device into held.set (when a step moved them).
std::vector<std::uint8_t> refresh_edge_states(const gpu::RigidBodySystem& system, HeldBodies& held,
                                              const RankPlace& place) {
  const domain::Aabb box = place.decomposition.box(place.rank);
  const std::vector<std::uint32_t> near = system.dynamic_bodies_near_faces(box.lo, box.hi, place.ghost_width);
  std::vector<std::uint8_t> edge(held.set.size(), 0);
  for (const std::uint32_t i : near) edge[i] = 1;
  // A ghost was in a neighbour's box a step ago, so it is near a face; listed anyway, since
  // whether it now owes its owner a migration is decided here, not assumed.
  std::vector<std::uint32_t> read = near;
  for (std::uint32_t i = 0; i < edge.size(); ++i)
    if (held.local.holder[i] >= 0 && edge[i] == 0) {
      edge[i] = 1;
      read.push_back(i);
    }
  if (held.stale) system.read_states(read, held.set);
  return edge;
}

}  // namespace

void GhostExchange::run(gpu::RigidBodySystem& system, HeldBodies& held, const RankPlace& place,
                        real max_displacement, ExchangeStats& stats) {
  check_displacement(system, max_displacement);
  if (place.split()) classify_and_refresh(system, held, place, stats);  // one rank owns everything, always
}

void GhostExchange::classify_and_refresh(gpu::RigidBodySystem& system, HeldBodies& held, const RankPlace& place,
                                         ExchangeStats& stats) {
  // A dynamic body deep inside this rank's box (farther than the ghost width from its faces) is
  // owned here, no neighbour needs it, and its state stays on the device: only the bodies near
  // the faces are read (refresh_edge_states), unless the membership changes below.
  const std::vector<int>& neighbours = place.exchange.neighbours();
  const std::vector<std::uint8_t> edge = refresh_edge_states(system, held, place);
  const gpu::BodySet& cur = held.set;
  std::vector<std::uint32_t> owned, kept;  // owned: the owned bodies near the faces
  std::vector<Vec3> owned_position;
  std::size_t migrated_in = 0;
  for (std::uint32_t i = 0; i < cur.size(); ++i) {
    if (!dynamic(cur, i) || edge[i] == 0) {
      kept.push_back(i);
      continue;
    }
    if (place.decomposition.owner_of(position(cur, i)) != place.rank) continue;
    owned.push_back(i);
    kept.push_back(i);
    owned_position.push_back(position(cur, i));
    if (held.local.holder[i] >= 0) ++migrated_in;
  }

  const domain::GhostPlan plan = domain::plan_ghosts(place.decomposition, place.rank, owned_position, place.ghost_width);
  const SphereIndex spheres(cur);
  std::vector<BodyRecords> out(neighbours.size());
  std::vector<std::vector<std::uint32_t>> sends(neighbours.size());  // indices into `owned`
  for (std::size_t p = 0; p < plan.neighbours.size(); ++p) {
    const auto k = static_cast<std::size_t>(
        std::find(neighbours.begin(), neighbours.end(), plan.neighbours[p]) - neighbours.begin());
    if (k == neighbours.size()) throw std::logic_error("ghost plan names a rank that is not a neighbour");
    sends[k] = plan.send[p];
    for (const std::uint32_t o : plan.send[p]) out[k].append(cur, spheres, owned[o]);
  }
  std::vector<std::vector<BodyRecord>> body_out(neighbours.size()), body_in;
  std::vector<std::vector<SphereRecord>> sphere_out(neighbours.size()), sphere_in;
  for (std::size_t k = 0; k < neighbours.size(); ++k) {
    body_out[k] = std::move(out[k].bodies);
    sphere_out[k] = std::move(out[k].spheres);
  }
  place.exchange.exchange_sized(body_out, body_in, comm::ExchangeTag::GhostBodies);
  // The spheres follow their bodies in order, so the bodies say how many come.
  sphere_in.resize(neighbours.size());
  for (std::size_t k = 0; k < neighbours.size(); ++k) {
    std::size_t spheres_of_k = 0;
    for (const BodyRecord& r : body_in[k]) spheres_of_k += r.sphere_count;
    sphere_in[k].resize(spheres_of_k);
  }
  place.exchange.exchange(sphere_out, sphere_in, comm::ExchangeTag::GhostSpheres);

  std::vector<BodyRecords> received(neighbours.size());
  std::vector<const BodyRecords*> sources;
  std::vector<std::pair<gpu::GlobalId, int>> ghost_holder;
  for (std::size_t k = 0; k < neighbours.size(); ++k) {
    received[k].bodies = std::move(body_in[k]);
    received[k].spheres = std::move(sphere_in[k]);
    sources.push_back(&received[k]);
    for (const BodyRecord& r : received[k].bodies) ghost_holder.emplace_back(r.gid, static_cast<int>(k));
  }
  std::sort(ghost_holder.begin(), ghost_holder.end());
  ghost_gids_.clear();
  for (const auto& g : ghost_holder) ghost_gids_.push_back(g.first);

  // The new membership: kept bodies and received ghosts, in gid order.
  LocalBodies local;
  local.gid.reserve(kept.size() + ghost_holder.size());
  for (const std::uint32_t i : kept) local.gid.push_back(cur.gid[i]);
  for (const auto& g : ghost_holder) local.gid.push_back(g.first);
  std::sort(local.gid.begin(), local.gid.end());
  local.holder.assign(local.gid.size(), kOwnedHere);
  for (std::size_t j = 0; j < local.gid.size(); ++j) {
    const auto it = std::lower_bound(ghost_holder.begin(), ghost_holder.end(), std::make_pair(local.gid[j], -1));
    if (it != ghost_holder.end() && it->first == local.gid[j]) {
      local.holder[j] = it->second;
      continue;
    }
    if (!dynamic(cur, index_of(cur.gid, local.gid[j]))) local.holder[j] = kOnEveryRank;
  }
  sends_.assign(neighbours.size(), {});
  for (std::size_t k = 0; k < neighbours.size(); ++k)
    for (const std::uint32_t o : sends[k]) sends_[k].push_back(index_of(local.gid, cur.gid[owned[o]]));
  // A received ghost carries the same bits as the copy this rank integrated itself, so when
  // nobody joined or left, the system already holds this step's set (most steps of a settled
  // bed; always on one rank).
  const bool unchanged = local.gid == held.local.gid && local.holder == held.local.holder;
  stats.ghosts = ghost_holder.size();
  stats.migrated_in = migrated_in;
  held.local = std::move(local);
  if (unchanged) return;
  // Bodies join or leave. The system rebuilds its arrays on the device from the kept bodies and
  // the received ghosts (all of them: a ghost held before carries the same bits), which alone
  // cross; the host's copy gets the new membership, its kept bodies' states stale.
  gpu::BodySet merged = merge_bodies(cur, kept, sources);
  system.update_bodies(merged, merge_bodies(cur, {}, sources));
  held.set = std::move(merged);
  held.stale = true;
}

}  // namespace trackcosim::terrain
