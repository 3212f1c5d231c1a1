// Bodies every rank holds (the shoe proxies of a co-simulation) and the loads on bodies: the
// applied loads the terrain's users set, and the contact loads it reports (shoe_loads.h adds
// them up).

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "terrain_node/checkpoint/body_set_copy.h"
#include "terrain_node/distributed/body_records.h"
#include "terrain_node/distributed/distributed_terrain_state.h"

namespace trackcosim::terrain {

void DistributedTerrain::add_everywhere_bodies(const gpu::BodySet& extra) {
  const std::uint64_t largest = group_.max(std::uint64_t{held_->set.size() > 0 ? held_->set.gid.back() : 0});
  if (extra.size() > 0 && extra.gid.front() <= largest)
    throw std::invalid_argument("added bodies need gids above " + std::to_string(largest) + ", got " +
                                std::to_string(extra.gid.front()));
  for (std::size_t i = 0; i < extra.size(); ++i)
    if (dynamic(extra, i))
      throw std::invalid_argument("body gid " + std::to_string(extra.gid[i]) +
                                  ": only fixed or kinematic bodies can be held by every rank");
  gpu::BodySet next;
  const gpu::BodySet& held = held_bodies();
  const SphereIndex held_spheres(held), extra_spheres(extra);
  for (std::uint32_t i = 0; i < held.size(); ++i) copy_body(held, held_spheres, i, next);
  for (std::uint32_t i = 0; i < extra.size(); ++i) copy_body(extra, extra_spheres, i, next);
  system_->replace_bodies(next);
  reload_held_bodies();
  held_->local.gid = held_->set.gid;
  held_->local.holder.resize(held_->set.size(), kOnEveryRank);
}

void DistributedTerrain::set_compliant_bodies(std::vector<gpu::CompliantBody> bodies) {
  system_->set_compliant_bodies(std::move(bodies));
}

void DistributedTerrain::set_kinematic_states(const std::vector<gpu::BodyState>& states) {
  shoe_loads_.move_proxies(*system_, *held_, states);
}

void DistributedTerrain::set_applied_load(gpu::GlobalId gid, Vec3 force, Vec3 torque) {
  gpu::BodySet& s = held_->set;
  const std::uint32_t i = index_of(s.gid, gid);
  if (i >= s.size() || s.gid[i] != gid) return;  // another rank's body
  if (!dynamic(s, i)) throw std::invalid_argument("gid " + std::to_string(gid) + " is not a dynamic body of the terrain");
  if (s.fx[i] == force.x && s.fy[i] == force.y && s.fz[i] == force.z && s.tx[i] == torque.x && s.ty[i] == torque.y &&
      s.tz[i] == torque.z)
    return;  // most steps: the schedule's piece goes on
  system_->set_applied_force(i, force, torque);
  s.fx[i] = force.x, s.fy[i] = force.y, s.fz[i] = force.z;
  s.tx[i] = torque.x, s.ty[i] = torque.y, s.tz[i] = torque.z;
}

void DistributedTerrain::watch_loads(std::vector<gpu::GlobalId> gids, bool contact_geometry) {
  shoe_loads_.watch(std::move(gids), contact_geometry);
}

std::vector<std::array<double, 6>> DistributedTerrain::take_loads() { return shoe_loads_.take(group_); }

std::vector<std::array<double, 21>> DistributedTerrain::take_contact_geometry() {
  return shoe_loads_.take_contact_geometry(group_);
}

}  // namespace trackcosim::terrain
