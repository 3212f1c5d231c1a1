// Stages 2 and 7 of the terrain step: the shoe proxies and the loads on them (shoe_loads.h).

#include "terrain_node/distributed/shoe_loads.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <utility>

#include "terrain_node/distributed/distributed_terrain_state.h"

namespace trackcosim::terrain {

void ShoeLoads::move_proxies(gpu::RigidBodySystem& system, HeldBodies& held, const std::vector<gpu::BodyState>& states) {
  const auto start = std::chrono::steady_clock::now();
  gpu::BodySet& s = held.set;
  std::vector<std::uint32_t> indices(states.size());
  for (std::size_t k = 0; k < states.size(); ++k) {
    const gpu::BodyState& state = states[k];
    const std::uint32_t i = index_of(s.gid, state.gid);
    if (i >= s.size() || s.gid[i] != state.gid || s.motion[i] != gpu::Motion::Kinematic)
      throw std::invalid_argument("gid " + std::to_string(state.gid) + " is not a kinematic body of the terrain");
    indices[k] = i;
  }
  // All proxies in one upload: one by one they cost 13 copies each (rigid_body_system.h).
  system.set_kinematic_states(indices, states);
  for (std::size_t k = 0; k < states.size(); ++k) {
    const gpu::BodyState& state = states[k];
    const std::uint32_t i = indices[k];
    s.px[i] = state.position.x, s.py[i] = state.position.y, s.pz[i] = state.position.z;
    s.qw[i] = state.orientation.w, s.qx[i] = state.orientation.x, s.qy[i] = state.orientation.y;
    s.qz[i] = state.orientation.z;
    s.vx[i] = state.velocity.x, s.vy[i] = state.velocity.y, s.vz[i] = state.velocity.z;
    s.wx[i] = state.angular_velocity.x, s.wy[i] = state.angular_velocity.y, s.wz[i] = state.angular_velocity.z;
  }
  proxy_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double ShoeLoads::take_proxy_seconds() { return std::exchange(proxy_seconds_, 0.0); }

void ShoeLoads::watch(std::vector<gpu::GlobalId> gids, bool contact_geometry) {
  std::sort(gids.begin(), gids.end());
  watched_ = std::move(gids);
  loads_ = comm::ExactSums(6 * watched_.size());
  contact_geometry_ = comm::ExactSums(contact_geometry ? 21 * watched_.size() : 0);
}

std::vector<std::array<double, 21>> ShoeLoads::take_contact_geometry(const comm::RankGroup& group) {
  if (contact_geometry_.size() != 21 * watched_.size())
    throw std::logic_error("take_contact_geometry without watch_loads(..., true)");
  const std::vector<double> totals = contact_geometry_.totals(group);
  contact_geometry_.reset();
  std::vector<std::array<double, 21>> out(watched_.size());
  for (std::size_t k = 0; k < watched_.size(); ++k)
    std::copy_n(totals.begin() + static_cast<std::ptrdiff_t>(21 * k), 21, out[k].begin());
  return out;
}

std::vector<std::array<double, 6>> ShoeLoads::take(const comm::RankGroup& group) {
  const std::vector<double> totals = loads_.totals(group);
  loads_.reset();
  std::vector<std::array<double, 6>> out(watched_.size());
  for (std::size_t k = 0; k < watched_.size(); ++k)
    for (int c = 0; c < 6; ++c) out[k][static_cast<std::size_t>(c)] = totals[6 * k + static_cast<std::size_t>(c)];
  return out;
}

void ShoeLoads::record_start_positions(const gpu::RigidBodySystem& system, const HeldBodies& held) {
  start_.assign(watched_.size(), Vec3{0, 0, 0});
  if (watched_.empty()) return;
  const gpu::BodySet& s = held.set;  // its gids are the system's, stale or not
  std::vector<std::uint32_t> bodies;
  std::vector<std::size_t> slots;
  for (std::size_t k = 0; k < watched_.size(); ++k) {
    const std::uint32_t i = index_of(s.gid, watched_[k]);
    if (i == s.size() || s.gid[i] != watched_[k]) continue;  // not held here
    bodies.push_back(i);
    slots.push_back(k);
  }
  const std::vector<Vec3> at = system.positions(bodies);
  for (std::size_t j = 0; j < slots.size(); ++j) start_[slots[j]] = at[j];
}

void ShoeLoads::accumulate(const gpu::RigidBodySystem& system, const HeldBodies& held) {
  if (watched_.empty() || !held.stepped) return;
  // Only the contacts of watched bodies leave the device, not the step's whole list.
  std::vector<std::uint32_t> touching;
  const gpu::ContactList c = system.contacts_touching(watched_, touching);
  std::vector<std::uint32_t> hits, rows;  // index in the step's list, row of `c`
  for (std::uint32_t r = 0; r < touching.size(); ++r)
    if (held.solved.here(touching[r])) {
      hits.push_back(touching[r]);
      rows.push_back(r);
    }
  if (hits.empty()) return;
  const std::vector<gpu::WarmStartImpulse> impulse = system.warm_start(hits);
  auto watched = [&](gpu::GlobalId gid) { return std::binary_search(watched_.begin(), watched_.end(), gid); };
  const bool with_geometry = contact_geometry_.size() > 0;
  auto add = [&](gpu::GlobalId gid, Vec3 point, Vec3 p, Vec3 n) {
    const std::size_t k = static_cast<std::size_t>(std::lower_bound(watched_.begin(), watched_.end(), gid) - watched_.begin());
    const Vec3 r = point - start_[k];  // about its position at the step's start
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
