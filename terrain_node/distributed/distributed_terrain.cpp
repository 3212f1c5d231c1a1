#include "terrain_node/distributed/distributed_terrain.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <tuple>

#include "comm/gather.h"
#include "comm/mpi_solver_exchange.h"
#include "domain/balanced_cuts.h"
#include "domain/body_roles.h"
#include "domain/ghost_width.h"
#include "domain/grid_layout.h"
#include "domain/migration_plan.h"
#include "terrain_node/distributed/body_records.h"
#include "terrain_node/distributed/distributed_terrain_state.h"
#include "terrain_node/distributed/solve_partition_plan.h"

namespace trackcosim::terrain {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }


gpu::BodyState state_of(const gpu::BodySet& s, std::size_t i) { return s.state(i); }

real kinetic_energy(const gpu::BodySet& s, std::size_t i) {
  const Vec3 v{s.vx[i], s.vy[i], s.vz[i]}, w{s.wx[i], s.wy[i], s.wz[i]};
  const Quat q{s.qw[i], s.qx[i], s.qy[i], s.qz[i]};
  const Vec3 b = rotate_inverse(q, w);
  return real(0.5) * (s.mass[i] * dot(v, v) + s.ix[i] * b.x * b.x + s.iy[i] * b.y * b.y + s.iz[i] * b.z * b.z);
}

}  // namespace

DistributedTerrain::~DistributedTerrain() = default;

void DistributedTerrain::use_decomposition(domain::Decomposition d) {
  decomposition_ = std::move(d);
  neighbours_ = decomposition_.neighbours(rank_, ghost_width_);
  exchange_ = std::make_unique<comm::NeighbourExchange>(group_, neighbours_);
}

std::string DistributedTerrain::layout_name() const { return domain::layout_name(decomposition_.grid()); }

std::size_t DistributedTerrain::owned_count() const {
  return static_cast<std::size_t>(std::count(held_->local.holder.begin(), held_->local.holder.end(), kOwnedHere));
}

const gpu::BodySet& DistributedTerrain::held_bodies() const {
  if (held_->stale) {
    held_->set = system_->bodies();
    held_->stale = false;
  }
  return held_->set;
}

void DistributedTerrain::reload_held_bodies() {
  held_->set = system_->bodies();
  held_->stale = false;
}

const gpu::ContactList& DistributedTerrain::held_contacts() const { return system_->host_contacts(); }

void DistributedTerrain::check_displacement() const {
  const gpu::RigidBodySystem::FastestBody fastest = system_->fastest_dynamic_body();
  if (fastest.index == system_->body_count()) return;
  const real moved = std::sqrt(fastest.speed_squared) * system_->settings().step_size;
  if (!(moved > max_displacement_)) return;
  const gpu::BodyState b = system_->body_state(fastest.index);
  throw std::runtime_error("body gid " + std::to_string(b.gid) + " at (" + std::to_string(b.position.x) + ", " +
                           std::to_string(b.position.y) + ", " + std::to_string(b.position.z) + ") moved " +
                           std::to_string(moved) + " m in one step, more than domain.max_displacement = " +
                           std::to_string(max_displacement_) + " m: raise domain.max_displacement or lower step_size");
}

std::vector<std::uint8_t> DistributedTerrain::refresh_edge_states() {
  const domain::Aabb box = decomposition_.box(rank_);
  const std::vector<std::uint32_t> near = system_->dynamic_bodies_near_faces(box.lo, box.hi, ghost_width_);
  std::vector<std::uint8_t> edge(held_->set.size(), 0);
  for (const std::uint32_t i : near) edge[i] = 1;
  // A ghost was in a neighbour's box a step ago, so it is near a face; listed anyway, since
  // whether it now owes its owner a migration is decided here, not assumed.
  std::vector<std::uint32_t> read = near;
  for (std::uint32_t i = 0; i < edge.size(); ++i)
    if (held_->local.holder[i] >= 0 && edge[i] == 0) {
      edge[i] = 1;
      read.push_back(i);
    }
  if (held_->stale) system_->read_states(read, held_->set);
  return edge;
}

void DistributedTerrain::classify_and_refresh_ghosts() {
  // A dynamic body deep inside this rank's box (farther than the ghost width from its faces) is
  // owned here, no neighbour needs it, and its state stays on the device: only the bodies near
  // the faces are read (refresh_edge_states), unless the membership changes below.
  const std::vector<std::uint8_t> edge = refresh_edge_states();
  const gpu::BodySet& cur = held_->set;
  std::vector<std::uint32_t> owned, kept;  // owned: the owned bodies near the faces
  std::vector<Vec3> owned_position;
  std::size_t migrated_in = 0;
  for (std::uint32_t i = 0; i < cur.size(); ++i) {
    if (!dynamic(cur, i) || edge[i] == 0) {
      kept.push_back(i);
      continue;
    }
    if (decomposition_.owner_of(position(cur, i)) != rank_) continue;
    owned.push_back(i);
    kept.push_back(i);
    owned_position.push_back(position(cur, i));
    if (held_->local.holder[i] >= 0) ++migrated_in;
  }

  const domain::GhostPlan plan = domain::plan_ghosts(decomposition_, rank_, owned_position, ghost_width_);
  const SphereIndex spheres(cur);
  std::vector<BodyRecords> out(neighbours_.size());
  std::vector<std::vector<std::uint32_t>> sends(neighbours_.size());  // indices into `owned`
  for (std::size_t p = 0; p < plan.neighbours.size(); ++p) {
    const auto k = static_cast<std::size_t>(
        std::find(neighbours_.begin(), neighbours_.end(), plan.neighbours[p]) - neighbours_.begin());
    if (k == neighbours_.size()) throw std::logic_error("ghost plan names a rank that is not a neighbour");
    sends[k] = plan.send[p];
    for (const std::uint32_t o : plan.send[p]) out[k].append(cur, spheres, owned[o]);
  }
  std::vector<std::vector<BodyRecord>> body_out(neighbours_.size()), body_in;
  std::vector<std::vector<SphereRecord>> sphere_out(neighbours_.size()), sphere_in;
  for (std::size_t k = 0; k < neighbours_.size(); ++k) {
    body_out[k] = std::move(out[k].bodies);
    sphere_out[k] = std::move(out[k].spheres);
  }
  exchange_->exchange_sized(body_out, body_in, comm::ExchangeTag::GhostBodies);
  // The spheres follow their bodies in order, so the bodies say how many come.
  sphere_in.resize(neighbours_.size());
  for (std::size_t k = 0; k < neighbours_.size(); ++k) {
    std::size_t spheres_of_k = 0;
    for (const BodyRecord& r : body_in[k]) spheres_of_k += r.sphere_count;
    sphere_in[k].resize(spheres_of_k);
  }
  exchange_->exchange(sphere_out, sphere_in, comm::ExchangeTag::GhostSpheres);

  std::vector<BodyRecords> received(neighbours_.size());
  std::vector<const BodyRecords*> sources;
  std::vector<std::pair<gpu::GlobalId, int>> ghost_holder;
  for (std::size_t k = 0; k < neighbours_.size(); ++k) {
    received[k].bodies = std::move(body_in[k]);
    received[k].spheres = std::move(sphere_in[k]);
    sources.push_back(&received[k]);
    for (const BodyRecord& r : received[k].bodies) ghost_holder.emplace_back(r.gid, static_cast<int>(k));
  }
  std::sort(ghost_holder.begin(), ghost_holder.end());
  held_->ghost_gids.clear();
  for (const auto& g : ghost_holder) held_->ghost_gids.push_back(g.first);

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
  held_->ghost_sends.assign(neighbours_.size(), {});
  for (std::size_t k = 0; k < neighbours_.size(); ++k)
    for (const std::uint32_t o : sends[k]) held_->ghost_sends[k].push_back(index_of(local.gid, cur.gid[owned[o]]));
  // A received ghost carries the same bits as the copy this rank integrated itself, so when
  // nobody joined or left, the system already holds this step's set (most steps of a settled
  // bed; always on one rank).
  const bool unchanged = local.gid == held_->local.gid && local.holder == held_->local.holder;
  exchange_stats_.ghosts = ghost_holder.size();
  exchange_stats_.migrated_in = migrated_in;
  held_->local = std::move(local);
  if (unchanged) return;
  // Bodies join or leave. The system rebuilds its arrays on the device from the kept bodies and
  // the received ghosts (all of them: a ghost held before carries the same bits), which alone
  // cross; the host's copy gets the new membership, its kept bodies' states stale.
  gpu::BodySet merged = merge_bodies(cur, kept, sources);
  system_->update_bodies(merged, merge_bodies(cur, {}, sources));
  held_->set = std::move(merged);
  held_->stale = true;
}

namespace {

// Stages 3, 5 and 6 as the one-rank system timed them (gpu::StepPhase is their finer clock).
void add_system_phases(StageSeconds& stages, const gpu::StepStats& stats) {
  const auto phase = [&](gpu::StepPhase p) { return stats.phase_seconds[static_cast<std::size_t>(p)]; };
  at(stages, TerrainStage::Collision) += phase(gpu::StepPhase::Collision);
  at(stages, TerrainStage::Solve) += phase(gpu::StepPhase::Prepare) + phase(gpu::StepPhase::Solve);
  at(stages, TerrainStage::Integrate) += phase(gpu::StepPhase::Integrate);
}

}  // namespace

// The stages of terrain_step_stages.h, in order; stage 2 (the shoe proxies) happened before the
// call, in set_kinematic_state, and is charged to this step.
void DistributedTerrain::step() {
  exchange_stats_ = {};
  stage_seconds_ = {};
  at(stage_seconds_, TerrainStage::Proxies) = std::exchange(proxy_seconds_, 0.0);
  const Clock::time_point ghosts = Clock::now();
  if (rebalance_interval_ > 0 && step_count() > 0 && step_count() % rebalance_interval_ == 0) rebalance();
  exchange_->reset_traffic();
  const Clock::time_point refresh = Clock::now();
  check_displacement();
  if (ranks_ > 1) classify_and_refresh_ghosts();  // one rank owns everything, always
  double exchange_seconds = since(refresh);
  record_watched_positions();
  at(stage_seconds_, TerrainStage::Ghosts) = since(ghosts);

  if (ranks_ == 1) {
    // Nothing to split: the plain step, whose contacts and bodies stay on the device (the same
    // bits as the split step, without its bookkeeping).
    system_->step();
    held_->stepped = true;
    held_->stale = true;
    held_->solved = {system_->contact_count(), {}};
    add_system_phases(stage_seconds_, system_->last_stats());
    timed_accumulate_loads();
    exchange_stats_.seconds = exchange_seconds;
    return;
  }
  system_->detect_contacts();
  held_->stepped = true;
  const Clock::time_point ownership = Clock::now();
  // Only the contacts near this rank's faces or at its ghosts cross to the host to be planned;
  // the others are solved here and stay on the device.
  const domain::Aabb box = decomposition_.box(rank_);
  std::vector<std::uint32_t> near_index;
  const gpu::ContactList near =
      system_->contacts_near_faces(box.lo, box.hi, ghost_width_, held_->ghost_gids, near_index);
  PartitionPlan plan =
      plan_partition(near, near_index, held_->local, decomposition_, rank_, neighbours_, held_->ghost_sends);
  system_->drop_contacts(plan.dropped);
  at(stage_seconds_, TerrainStage::Ownership) = since(ownership);

  // The solver exchanges the ghosts' contact counts (the Jacobi split) before its iterations.
  comm::MpiSolverExchange solver_exchange(*exchange_, plan.counts);
  system_->finish_step(&plan.partition, &solver_exchange);
  exchange_stats_.solver_seconds = solver_exchange.seconds();
  exchange_stats_.reduction_seconds = solver_exchange.reduction_seconds();
  exchange_stats_.reductions = solver_exchange.reductions();
  held_->solved = {system_->contact_count(), std::move(plan.partition.solved_elsewhere)};
  add_system_phases(stage_seconds_, system_->last_stats());

  timed_accumulate_loads();
  const Clock::time_point warm_start = Clock::now();
  forward_warm_start(near, plan.kept_index);
  const double forwarded = since(warm_start);
  exchange_seconds += forwarded;
  at(stage_seconds_, TerrainStage::Integrate) += forwarded;
  held_->stale = true;
  exchange_stats_.seconds = exchange_seconds;
  exchange_stats_.exchanges = exchange_->traffic().exchanges;
  exchange_stats_.bytes = exchange_->traffic().bytes;
  exchange_stats_.message_seconds = exchange_->traffic().seconds;
  exchange_stats_.message_cpu_seconds = exchange_->traffic().cpu_seconds;
}

void DistributedTerrain::timed_accumulate_loads() {
  const Clock::time_point start = Clock::now();
  accumulate_loads();
  at(stage_seconds_, TerrainStage::Loads) = since(start);
}

void DistributedTerrain::forward_warm_start(const gpu::ContactList& near, const std::vector<std::uint32_t>& kept_index) {
  if (neighbours_.empty()) return;
  const domain::Aabb box = decomposition_.box(rank_);
  std::vector<std::vector<std::uint32_t>> chosen(neighbours_.size());
  std::vector<std::uint32_t> all;  // kept indices
  for (std::uint32_t r = 0; r < near.size(); ++r) {
    const std::uint32_t i = kept_index[r];
    if (i == kDropped || !held_->solved.here(i)) continue;
    const Vec3 m = contact_midpoint(near, r);
    // Far from every face of our box, no neighbour box is near (and the contact is not in `near`
    // unless it touches a ghost).
    const real inside = std::min({m.x - box.lo.x, box.hi.x - m.x, m.y - box.lo.y, box.hi.y - m.y, m.z - box.lo.z,
                                  box.hi.z - m.z});
    if (inside > ghost_width_) continue;
    bool any = false;
    for (std::size_t k = 0; k < neighbours_.size(); ++k)
      if (decomposition_.distance_to_box(m, neighbours_[k]) <= ghost_width_) {
        chosen[k].push_back(static_cast<std::uint32_t>(all.size()));
        any = true;
      }
    if (any) all.push_back(i);
  }
  const std::vector<gpu::WarmStartImpulse> entries = system_->warm_start(all);
  std::vector<std::vector<gpu::WarmStartImpulse>> out(neighbours_.size()), in;
  for (std::size_t k = 0; k < neighbours_.size(); ++k)
    for (const std::uint32_t e : chosen[k]) out[k].push_back(entries[e]);
  exchange_->exchange_sized(out, in, comm::ExchangeTag::WarmStart);
  std::vector<gpu::WarmStartImpulse> received;
  for (const auto& v : in) received.insert(received.end(), v.begin(), v.end());
  system_->merge_warm_start(received);
}

const gpu::StepStats& DistributedTerrain::local_stats() const { return system_->last_stats(); }

std::uint64_t DistributedTerrain::contacts_solved_here() const { return held_->solved.count(); }

std::uint64_t DistributedTerrain::contact_total() const { return group_.sum(contacts_solved_here()); }

DistributedTerrain::FastestGrain DistributedTerrain::fastest_grain() const {
  const gpu::RigidBodySystem::FastestBody fastest = system_->fastest_dynamic_body();
  FastestGrain here;
  if (fastest.index < system_->body_count()) {
    here.speed = std::sqrt(double(fastest.speed_squared));
    const auto p = system_->body_state(fastest.index).position;
    here.position = {double(p.x), double(p.y), double(p.z)};
  }
  FastestGrain all;
  all.speed = group_.max(here.speed);
  // The position from the lowest rank that holds a grain of that speed (two ranks may hold
  // different grains of the same speed; a ghost copy is at the same place); the others add 0.
  const int from = group_.min(here.speed == all.speed ? group_.rank() : group_.size());
  for (int k = 0; k < 3; ++k) all.position[k] = group_.rank() == from ? here.position[k] : 0.0;
  group_.sum_in_place(all.position);
  return all;
}

gpu::StepStats DistributedTerrain::global_stats() const {
  gpu::StepStats stats = system_->last_stats();
  comm::ExactSum energy;
  const gpu::BodySet& s = held_bodies();
  for (std::size_t i = 0; i < s.size(); ++i)
    if (held_->local.holder[i] == kOwnedHere) energy.add(kinetic_energy(s, i));
  stats.kinetic_energy = energy.total(group_);
  stats.contacts = contact_total();
  stats.max_penetration = group_.max(double(stats.max_penetration));
  return stats;
}

std::vector<gpu::BodyState> DistributedTerrain::gather_states() const {
  const gpu::BodySet& s = held_bodies();
  std::vector<gpu::BodyState> mine;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (held_->local.holder[i] == kOwnedHere) mine.push_back(state_of(s, i));
  for (const BodyRecord& r : held_->stored.bodies) mine.push_back(state_of(r));
  std::vector<gpu::BodyState> all = comm::gather_to_leader(group_, mine);
  if (!leader()) return {};
  for (std::size_t i = 0; i < s.size(); ++i)
    if (held_->local.holder[i] == kOnEveryRank) all.push_back(state_of(s, i));
  std::sort(all.begin(), all.end(), [](const gpu::BodyState& l, const gpu::BodyState& r) { return l.gid < r.gid; });
  return all;
}

std::vector<gpu::BodyState> DistributedTerrain::gather_states(const std::vector<gpu::GlobalId>& gids) const {
  const gpu::BodySet& s = held_bodies();
  std::vector<gpu::BodyState> mine;
  for (const gpu::GlobalId gid : gids) {
    const std::uint32_t i = index_of(s.gid, gid);
    if (i < s.size() && s.gid[i] == gid && (held_->local.holder[i] == kOwnedHere ||
                                            (held_->local.holder[i] == kOnEveryRank && leader())))
      mine.push_back(state_of(s, i));
    if (const BodyRecord* r = find_record(held_->stored, gid)) mine.push_back(state_of(*r));
  }
  const std::vector<gpu::BodyState> all = comm::gather_to_leader(group_, mine);
  if (!leader()) return {};
  std::vector<gpu::BodyState> ordered;
  for (const gpu::GlobalId gid : gids)
    for (const gpu::BodyState& b : all)
      if (b.gid == gid) ordered.push_back(b);
  return ordered;
}

std::vector<gpu::WarmStartImpulse> DistributedTerrain::solved_impulses(std::vector<Vec3>* midpoints) const {
  // Found by key: the store also holds entries neighbours forwarded, so it is no longer aligned
  // with the contact list.
  if (!held_->stepped) return {};
  const std::vector<gpu::WarmStartImpulse> store = system_->warm_start();
  const gpu::ContactList& c = held_contacts();
  std::vector<gpu::WarmStartImpulse> out;
  auto key = [](const gpu::WarmStartImpulse& e) { return std::tie(e.gid_a, e.gid_b, e.shape_a, e.shape_b); };
  for (std::uint32_t i = 0; i < held_->solved.kept; ++i) {
    if (!held_->solved.here(i)) continue;
    const gpu::WarmStartImpulse probe{c.gid_a[i], c.gid_b[i], c.shape_a[i], c.shape_b[i], {0, 0, 0}};
    const auto it = std::lower_bound(store.begin(), store.end(), probe,
                                     [&](const auto& l, const auto& r) { return key(l) < key(r); });
    if (it == store.end() || key(*it) != key(probe)) continue;
    out.push_back(*it);
    if (midpoints != nullptr) midpoints->push_back(contact_midpoint(c, i));
  }
  return out;
}

TerrainCheckpoint DistributedTerrain::gather_checkpoint() const {
  const gpu::BodySet& s = held_bodies();
  const SphereIndex spheres(s);
  BodyRecords mine;
  std::vector<std::uint32_t> everywhere;
  for (std::uint32_t i = 0; i < s.size(); ++i) {
    if (held_->local.holder[i] == kOwnedHere) mine.append(s, spheres, i);
    if (held_->local.holder[i] == kOnEveryRank) everywhere.push_back(i);
  }
  // Stored particles of a moving patch go in as fixed: at rest where they were left, until a
  // restarted patch sorts them again (docs/moving-patch.md).
  for (std::size_t k = 0, first = 0; k < held_->stored.bodies.size(); first += held_->stored.bodies[k++].sphere_count) {
    mine.append(held_->stored, k, first);
    set_at_rest(mine.bodies.back(), gpu::Motion::Fixed);
  }
  const std::vector<gpu::WarmStartImpulse> warm = solved_impulses(nullptr);
  BodyRecords all;
  all.bodies = comm::gather_to_leader(group_, mine.bodies);
  all.spheres = comm::gather_to_leader(group_, mine.spheres);
  const std::vector<gpu::WarmStartImpulse> all_warm = comm::gather_to_leader(group_, warm);
  TerrainCheckpoint c;
  if (!leader()) return c;
  c.step = step_count();
  c.time = time();
  c.bodies = merge_bodies(s, everywhere, {&all});
  for (const gpu::WarmStartImpulse& e : all_warm)
    c.warm_start.push_back(checkpoint_entry(e));
  std::sort(c.warm_start.begin(), c.warm_start.end(), [](const WarmStartEntry& l, const WarmStartEntry& r) {
    return std::tie(l.gid_a, l.gid_b, l.shape_a, l.shape_b) < std::tie(r.gid_a, r.gid_b, r.shape_a, r.shape_b);
  });
  return c;
}

}  // namespace trackcosim::terrain
