// Bodies every rank holds (the shoe proxies of a co-simulation) and the loads the terrain puts
// on them. A contact with a proxy is solved by exactly one rank; each rank adds the impulses of
// the contacts it solved into exact fixed-point sums, so the total over ranks is the same bits
// whatever the rank count (comm::ExactSums).

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

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

void DistributedTerrain::set_kinematic_state(const gpu::BodyState& state) {
  const auto start = std::chrono::steady_clock::now();
  gpu::BodySet& s = held_->set;
  const std::uint32_t i = index_of(s.gid, state.gid);
  if (i >= s.size() || s.gid[i] != state.gid || s.motion[i] != gpu::Motion::Kinematic)
    throw std::invalid_argument("gid " + std::to_string(state.gid) + " is not a kinematic body of the terrain");
  system_->set_pose(i, state.position, state.orientation);
  system_->set_velocity(i, state.velocity, state.angular_velocity);
  s.px[i] = state.position.x, s.py[i] = state.position.y, s.pz[i] = state.position.z;
  s.qw[i] = state.orientation.w, s.qx[i] = state.orientation.x, s.qy[i] = state.orientation.y;
  s.qz[i] = state.orientation.z;
  s.vx[i] = state.velocity.x, s.vy[i] = state.velocity.y, s.vz[i] = state.velocity.z;
  s.wx[i] = state.angular_velocity.x, s.wy[i] = state.angular_velocity.y, s.wz[i] = state.angular_velocity.z;
  proxy_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
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
  std::sort(gids.begin(), gids.end());
  watched_ = std::move(gids);
  loads_ = comm::ExactSums(6 * watched_.size());
  contact_geometry_ = comm::ExactSums(contact_geometry ? 21 * watched_.size() : 0);
}

std::vector<std::array<double, 21>> DistributedTerrain::take_contact_geometry() {
  if (contact_geometry_.size() != 21 * watched_.size())
    throw std::logic_error("take_contact_geometry without watch_loads(..., true)");
  const std::vector<double> totals = contact_geometry_.totals(group_);
  contact_geometry_.reset();
  std::vector<std::array<double, 21>> out(watched_.size());
  for (std::size_t k = 0; k < watched_.size(); ++k)
    std::copy_n(totals.begin() + static_cast<std::ptrdiff_t>(21 * k), 21, out[k].begin());
  return out;
}

std::vector<std::array<double, 6>> DistributedTerrain::take_loads() {
  const std::vector<double> totals = loads_.totals(group_);
  loads_.reset();
  std::vector<std::array<double, 6>> out(watched_.size());
  for (std::size_t k = 0; k < watched_.size(); ++k)
    for (int c = 0; c < 6; ++c) out[k][static_cast<std::size_t>(c)] = totals[6 * k + static_cast<std::size_t>(c)];
  return out;
}

void DistributedTerrain::record_watched_positions() {
  held_->watched_start.assign(watched_.size(), Vec3{0, 0, 0});
  if (watched_.empty()) return;
  const gpu::BodySet& s = held_->set;  // its gids are the system's, stale or not
  std::vector<std::uint32_t> bodies;
  std::vector<std::size_t> slots;
  for (std::size_t k = 0; k < watched_.size(); ++k) {
    const std::uint32_t i = index_of(s.gid, watched_[k]);
    if (i == s.size() || s.gid[i] != watched_[k]) continue;  // not held here
    bodies.push_back(i);
    slots.push_back(k);
  }
  const std::vector<Vec3> at = system_->positions(bodies);
  for (std::size_t j = 0; j < slots.size(); ++j) held_->watched_start[slots[j]] = at[j];
}

void DistributedTerrain::accumulate_loads() {
  if (watched_.empty() || !held_->stepped) return;
  // Only the contacts of watched bodies leave the device, not the step's whole list.
  std::vector<std::uint32_t> touching;
  const gpu::ContactList c = system_->contacts_touching(watched_, touching);
  std::vector<std::uint32_t> hits, rows;  // index in the step's list, row of `c`
  for (std::uint32_t r = 0; r < touching.size(); ++r)
    if (held_->solved.here(touching[r])) {
      hits.push_back(touching[r]);
      rows.push_back(r);
    }
  if (hits.empty()) return;
  // The store is aligned with this step's contacts until forward_warm_start merges into it.
  const std::vector<gpu::WarmStartImpulse> impulse = system_->warm_start(hits);
  auto watched = [&](gpu::GlobalId gid) { return std::binary_search(watched_.begin(), watched_.end(), gid); };
  const bool with_geometry = contact_geometry_.size() > 0;
  auto add = [&](gpu::GlobalId gid, Vec3 point, Vec3 p, Vec3 n) {
    const std::size_t k = static_cast<std::size_t>(std::lower_bound(watched_.begin(), watched_.end(), gid) - watched_.begin());
    const Vec3 r = point - held_->watched_start[k];  // about its position at the step's start
    const Vec3 l = cross(r, p);
    const double v[6] = {p.x, p.y, p.z, l.x, l.y, l.z};
    for (std::size_t m = 0; m < 6; ++m) loads_.add(6 * k + m, v[m]);
    // A loaded contact's direction in the body's generalised coordinates: its spring's share of
    // the body's stiffness is k g g^T (docs/protocol.md, "Implicit shoe loads").
    if (!with_geometry || dot(p, n) == 0) return;
    const Vec3 rn = cross(r, n);
    const double g[6] = {n.x, n.y, n.z, rn.x, rn.y, rn.z};
    for (std::size_t row = 0, at = 21 * k; row < 6; ++row)
      for (std::size_t col = 0; col <= row; ++col, ++at) contact_geometry_.add(at, g[row] * g[col]);
  };
  for (std::size_t h = 0; h < hits.size(); ++h) {
    const std::uint32_t i = rows[h];
    const Vec3 on_b = impulse[h].impulse_on_b;
    const Vec3 n = c.normal(i);
    if (watched(c.gid_b[i])) add(c.gid_b[i], {c.bx[i], c.by[i], c.bz[i]}, on_b, n);
    if (watched(c.gid_a[i])) add(c.gid_a[i], {c.ax[i], c.ay[i], c.az[i]}, Vec3{-on_b.x, -on_b.y, -on_b.z}, n);
  }
}

}  // namespace trackcosim::terrain
