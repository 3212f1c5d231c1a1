#include "terrain_node/distributed/distributed_terrain.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <tuple>

#include "comm/gather.h"
#include "domain/balanced_cuts.h"
#include "domain/body_roles.h"
#include "domain/ghost_width.h"
#include "domain/grid_layout.h"
#include "terrain_node/distributed/body_records.h"
#include "terrain_node/distributed/distributed_terrain_state.h"
#include "terrain_node/distributed/solve_partition_plan.h"

namespace trackcosim::terrain {

namespace {

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

RankPlace DistributedTerrain::place() { return {decomposition_, rank_, ranks_, *exchange_, ghost_width_}; }

// The stages of terrain_step_stages.h, in order, each under the stage clock. Stage 2 (the shoe
// proxies) ran before the call, in set_kinematic_state, and is charged to this step.
void DistributedTerrain::step() {
  exchange_stats_ = {};
  TerrainStageClock clock(stage_seconds_);
  clock.charge(TerrainStage::Proxies, shoe_loads_.take_proxy_seconds());
  if (rebalance_interval_ > 0 && step_count() > 0 && step_count() % rebalance_interval_ == 0)
    clock.run(TerrainStage::Ghosts, [&] { rebalance(); });  // new cuts: place() after it
  exchange_->reset_traffic();
  const RankPlace here = place();
  exchange_stats_.seconds +=
      clock.run(TerrainStage::Ghosts, [&] { ghosts_.run(*system_, *held_, here, max_displacement_, exchange_stats_); });
  clock.run(TerrainStage::Ghosts, [&] { shoe_loads_.record_start_positions(*system_, *held_); });
  clock.run(TerrainStage::Collision, [&] {
    system_->detect_contacts();
    held_->stepped = true;
  });
  clock.run(TerrainStage::Ownership, [&] { ownership_.plan(*system_, *held_, ghosts_, here); });
  clock.run(TerrainStage::Solve, [&] { ownership_.solve(*system_, *held_, here, exchange_stats_); });
  clock.run(TerrainStage::Integrate, [&] {
    system_->integrate();
    held_->stale = true;
  });
  clock.run(TerrainStage::Loads, [&] { shoe_loads_.accumulate(*system_, *held_); });
  exchange_stats_.seconds += clock.run(TerrainStage::Integrate,
                                       [&] { ownership_.hand_over_warm_start(*system_, *held_, here); });
  exchange_stats_.add_messages(exchange_->traffic());
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
