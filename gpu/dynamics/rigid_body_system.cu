// One time step, in the order of Tasora-Negrut algorithm 1 and DESIGN.md's terrain step:
// collision -> prepare -> solve -> integrate, each timed as a StepPhase; detect_contacts, solve
// and integrate are the phases a distributed driver calls one by one.

#include "gpu/dynamics/rigid_body_system.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#include <thrust/binary_search.h>
#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/gather.h>
#include <thrust/reduce.h>
#include <thrust/scatter.h>
#include <thrust/iterator/counting_iterator.h>

#include "gpu/collision/detail/stage_clock.h"
#include "gpu/dynamics/detail/index_ops.h"
#include "gpu/dynamics/detail/integrator.h"
#include "gpu/dynamics/detail/system_impl.h"
#include "gpu/dynamics/detail/system_validation.h"
#include "gpu/dynamics/detail/warm_start_merge.h"
#include "gpu/memory/execution.h"
#include "gpu/memory/host_copy.h"

namespace trackcosim::gpu {

namespace {

using PhaseClock = detail::EnumClock<StepPhase, kStepPhaseCount>;

template <class T>
void keep_entries(std::vector<T>& v, const std::vector<std::size_t>& kept) {
  std::vector<T> out(kept.size());
  for (std::size_t k = 0; k < kept.size(); ++k) out[k] = v[kept[k]];
  v.swap(out);
}

/// Keeps the contacts listed in `kept` (increasing), in order.
void keep_contact_entries(ContactList& contacts, const std::vector<std::size_t>& kept) {
  if (kept.size() == contacts.size()) return;
  keep_entries(contacts.gid_a, kept);
  keep_entries(contacts.gid_b, kept);
  keep_entries(contacts.shape_a, kept);
  keep_entries(contacts.shape_b, kept);
  for (auto* v : {&contacts.distance, &contacts.nx, &contacts.ny, &contacts.nz, &contacts.ax, &contacts.ay,
                  &contacts.az, &contacts.bx, &contacts.by, &contacts.bz})
    keep_entries(*v, kept);
}

}  // namespace

void RigidBodySystem::Impl::upload_rows() {
  const std::size_t n = rows.size();
  std::vector<std::uint32_t> a(n), b(n);
  std::vector<real> la[3], aa[3], lb[3], ab[3], bias(n);
  for (auto* set : {&la, &aa, &lb, &ab})
    for (auto& v : *set) v.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const BilateralRow& r = rows[i];
    a[i] = r.body_a;
    b[i] = r.body_b;
    const Vec3 parts[4] = {r.linear_a, r.angular_a, r.linear_b, r.angular_b};
    std::vector<real>(*dst[4])[3] = {&la, &aa, &lb, &ab};
    for (int p = 0; p < 4; ++p) {
      (*dst[p])[0][i] = parts[p].x;
      (*dst[p])[1][i] = parts[p].y;
      (*dst[p])[2][i] = parts[p].z;
    }
    bias[i] = r.bias;
  }
  detail::upload(ws.rows.body_a, a);
  detail::upload(ws.rows.body_b, b);
  ws.rows.linear_a.assign(la[0], la[1], la[2]);
  ws.rows.angular_a.assign(aa[0], aa[1], aa[2]);
  ws.rows.linear_b.assign(lb[0], lb[1], lb[2]);
  ws.rows.angular_b.assign(ab[0], ab[1], ab[2]);
  detail::upload(ws.rows.bias, bias);
  ws.rows.eta.resize(n);
}

void RigidBodySystem::set_step_size(real step_size) {
  StepSettings changed = settings_;
  changed.step_size = step_size;
  detail::validate_step_settings(changed);
  settings_ = changed;
}

void RigidBodySystem::set_gravity(Vec3 gravity) {
  StepSettings changed = settings_;
  changed.gravity = gravity;
  detail::validate_step_settings(changed);
  settings_ = changed;
}

RigidBodySystem::RigidBodySystem(const BodySet& bodies, StepSettings settings) : settings_(settings) {
  detail::validate_bodies(bodies);
  detail::validate_step_settings(settings_);
  impl_ = std::make_unique<Impl>(bodies, settings_);
  impl_->upload_rows();
}

RigidBodySystem::~RigidBodySystem() = default;

// step() keeps the contacts in device memory; a driver that splits the solve over ranks reads
// the few it plans (contacts_near_faces, system_queries.cu).
void RigidBodySystem::step() {
  detect_contacts();
  solve();
  integrate();
}

void RigidBodySystem::detect_contacts() {
  stats_ = StepStats{};
  PhaseClock clock(stats_.phase_seconds);
  clock.run(StepPhase::Collision, [&] { impl_->find_contacts(); });
}

void RigidBodySystem::drop_contacts(const std::vector<std::uint32_t>& dropped) {
  Impl& m = *impl_;
  m.contacts.drop(dropped);  // checks the indices
  if (!m.host_contacts_current || dropped.empty()) return;
  std::vector<std::size_t> kept;
  kept.reserve(m.host_contacts.size() - dropped.size());
  for (std::size_t i = 0, d = 0; i < m.host_contacts.size(); ++i) {
    if (d < dropped.size() && dropped[d] == i) {
      ++d;
      continue;
    }
    kept.push_back(i);
  }
  keep_contact_entries(m.host_contacts, kept);
}

std::size_t RigidBodySystem::contact_count() const { return impl_->contacts.size(); }

void RigidBodySystem::solve(const SolvePartition* partition, SolverExchange* exchange) {
  Impl& m = *impl_;
  PhaseClock clock(stats_.phase_seconds);
  const real h = settings_.step_size;
  const detail::DeviceContacts& contacts = m.contacts.contacts();
  stats_.contacts = contacts.size();
  if (!contacts.distance.empty())  // a minimum is exact: the same for any thread count
    stats_.max_penetration = std::max(real(0), -thrust::reduce(detail::par(), contacts.distance.begin(),
                                                               contacts.distance.end(), real(1e300),
                                                               thrust::minimum<real>()));
  const bool distributed = partition != nullptr && exchange != nullptr;
  if (distributed && !m.rows.empty())
    throw std::logic_error("a distributed solve does not support bilateral rows");

  clock.run(StepPhase::Prepare, [&] {
    detail::compute_free_velocities(m.bodies, h, settings_.gravity);
    detail::prepare_contacts(contacts, m.bodies, h, settings_.solver, m.compliant, m.warm, m.upload, m.ws);
    detail::prepare_rolling(m.bodies, settings_.solver, m.warm, m.upload, m.ws);
    detail::prepare_rows(m.bodies, settings_.solver, m.ws);
    m.ws.slots.resize(m.ws.slot_count());
    m.ws.slot_lists.build(m.ws.contacts, m.ws.rows, m.bodies.size());
    if (distributed) detail::begin_distributed_solve(*partition, *exchange, m.bodies, m.ws);
    if (settings_.solver.method == SolverMethod::Jacobi) detail::prepare_jacobi_steps(m.bodies, m.ws, settings_.solver);
  });

  detail::SolveResult solved;
  clock.run(StepPhase::Solve, [&] {
    solved = settings_.solver.method == SolverMethod::Jacobi ? detail::solve_jacobi(m.bodies, m.ws, settings_.solver)
                                                             : detail::solve_apgd(m.bodies, m.ws, settings_.solver);
  });
  // Integration reads neither the ghost marks nor the contacts' split.
  if (distributed) detail::end_distributed_solve(m.bodies, m.ws);
  stats_.iterations = solved.iterations;
  stats_.passes = solved.passes;
  stats_.residual = solved.residual;
  stats_.residual_history = std::move(solved.history);
}

void RigidBodySystem::set_progress(SolverProgress* progress) { impl_->ws.progress = progress; }

void RigidBodySystem::integrate() {
  Impl& m = *impl_;
  PhaseClock clock(stats_.phase_seconds);
  const real h = settings_.step_size;
  clock.run(StepPhase::Integrate, [&] {
    detail::integrate_positions(m.bodies, h);
    detail::store_warm_start(m.upload, m.ws, m.warm);
  });
  stats_.kinetic_energy = detail::kinetic_energy(m.bodies, m.ws.partials);
  time_ += h;
  ++steps_;
}

BodySet RigidBodySystem::bodies() const {
  BodySet out = impl_->description;
  const detail::DeviceBodies& b = impl_->bodies;
  auto down = [](const thrust::device_vector<real>& v, std::vector<real>& dst) { detail::download(v, dst); };
  down(b.position.x, out.px), down(b.position.y, out.py), down(b.position.z, out.pz);
  down(b.orientation.w, out.qw), down(b.orientation.x, out.qx), down(b.orientation.y, out.qy);
  down(b.orientation.z, out.qz);
  down(b.velocity.x, out.vx), down(b.velocity.y, out.vy), down(b.velocity.z, out.vz);
  down(b.angular_velocity.x, out.wx), down(b.angular_velocity.y, out.wy), down(b.angular_velocity.z, out.wz);
  down(b.force.x, out.fx), down(b.force.y, out.fy), down(b.force.z, out.fz);
  down(b.torque.x, out.tx), down(b.torque.y, out.ty), down(b.torque.z, out.tz);
  return out;
}

void RigidBodySystem::replace_bodies(const BodySet& bodies) {
  detail::validate_bodies(bodies);
  if (!impl_->rows.empty())
    throw std::logic_error("replace_bodies: bilateral rows refer to body indices; clear them first");
  Impl& m = *impl_;
  m.description = bodies;
  m.motion = bodies.motion;
  m.shapes = detail::WorldShapes(bodies);
  m.find_immovable();
  m.bodies.upload(bodies);
}

namespace {

/// The held bodies (gids, increasing) that leave when `next` replaces them with `added` joining:
/// those not in next, and those added replaces. Throws when next is not held less some plus added.
std::vector<std::uint32_t> leaving_bodies(const std::vector<GlobalId>& held, const std::vector<GlobalId>& next,
                                          const std::vector<GlobalId>& added) {
  std::vector<std::uint32_t> leaving;
  std::size_t h = 0, a = 0;
  for (const GlobalId gid : next) {
    while (h < held.size() && held[h] < gid) leaving.push_back(static_cast<std::uint32_t>(h++));
    const bool is_held = h < held.size() && held[h] == gid;
    const bool is_added = a < added.size() && added[a] == gid;
    if (is_added) ++a;
    if (is_held && is_added) leaving.push_back(static_cast<std::uint32_t>(h));
    if (is_held) ++h;
    if (!is_held && !is_added)
      throw std::invalid_argument("update_bodies: body gid " + std::to_string(gid) + " is neither held nor added");
  }
  while (h < held.size()) leaving.push_back(static_cast<std::uint32_t>(h++));
  if (a != added.size())
    throw std::invalid_argument("update_bodies: added body gid " + std::to_string(added[a]) + " is not in the new set");
  return leaving;
}

}  // namespace

void RigidBodySystem::update_bodies(const BodySet& next, const BodySet& added) {
  detail::validate_bodies(next);
  if (!impl_->rows.empty())
    throw std::logic_error("update_bodies: bilateral rows refer to body indices; clear them first");
  Impl& m = *impl_;
  const std::vector<std::uint32_t> leaving = leaving_bodies(m.description.gid, next.gid, added.gid);
  const auto held = static_cast<std::uint32_t>(m.bodies.size());
  thrust::device_vector<std::uint32_t> leaving_index;
  detail::upload(leaving_index, leaving);
  thrust::device_vector<std::uint8_t> leaves(held, 0);
  detail::mark(leaves, leaving_index, 1);
  detail::DeviceBodies joining;
  joining.upload(added);
  thrust::device_vector<GlobalId> gids = m.bodies.gid;
  const thrust::device_vector<std::uint32_t> source = detail::merge_sorted(gids, leaves, joining.gid);
  thrust::device_vector<std::uint32_t> new_body_of(held + added.size(), detail::WorldShapes::kGone);
  thrust::scatter(detail::par(), thrust::counting_iterator<std::uint32_t>(0),
                  thrust::counting_iterator<std::uint32_t>(static_cast<std::uint32_t>(source.size())), source.begin(),
                  new_body_of.begin());
  m.bodies.regroup(joining, source);
  m.shapes.regroup(detail::WorldShapes(added), new_body_of, held);
  m.description = next;
  m.motion = next.motion;
  m.find_immovable();
}

std::vector<WarmStartImpulse> RigidBodySystem::warm_start() const {
  std::vector<std::uint32_t> all(impl_->warm.keys.size());
  for (std::uint32_t i = 0; i < all.size(); ++i) all[i] = i;
  return warm_start(all);
}

std::vector<WarmStartImpulse> RigidBodySystem::warm_start(const std::vector<std::uint32_t>& contacts) const {
  const detail::WarmStartStore& w = impl_->warm;
  thrust::device_vector<std::uint32_t> index;
  detail::upload(index, contacts);
  thrust::device_vector<detail::ContactKey> keys(index.size());
  detail::DeviceVec3 impulse;
  impulse.resize(index.size());
  thrust::gather(detail::par(), index.begin(), index.end(), w.keys.begin(), keys.begin());
  thrust::gather(detail::par(), index.begin(), index.end(), w.impulse.x.begin(), impulse.x.begin());
  thrust::gather(detail::par(), index.begin(), index.end(), w.impulse.y.begin(), impulse.y.begin());
  thrust::gather(detail::par(), index.begin(), index.end(), w.impulse.z.begin(), impulse.z.begin());
  const std::vector<detail::ContactKey> k = detail::download(keys);
  const std::vector<real> x = detail::download(impulse.x), y = detail::download(impulse.y),
                          z = detail::download(impulse.z);
  std::vector<WarmStartImpulse> out(k.size());
  for (std::size_t i = 0; i < k.size(); ++i) out[i] = {k[i].gid_a, k[i].gid_b, k[i].shape_a, k[i].shape_b, {x[i], y[i], z[i]}};
  if (w.rolling.x.size() == w.keys.size() && !w.keys.empty()) {
    // Reuses `impulse` as the staging buffer, and copies to the host once per component.
    thrust::gather(detail::par(), index.begin(), index.end(), w.rolling.x.begin(), impulse.x.begin());
    thrust::gather(detail::par(), index.begin(), index.end(), w.rolling.y.begin(), impulse.y.begin());
    thrust::gather(detail::par(), index.begin(), index.end(), w.rolling.z.begin(), impulse.z.begin());
    const std::vector<real> rx = detail::download(impulse.x), ry = detail::download(impulse.y),
                            rz = detail::download(impulse.z);
    for (std::size_t i = 0; i < out.size(); ++i) out[i].rolling_on_b = {rx[i], ry[i], rz[i]};
  }
  return out;
}

void RigidBodySystem::merge_warm_start(const std::vector<WarmStartImpulse>& entries) {
  detail::merge_warm_start(impl_->warm, entries, settings_.solver.rolling_friction > 0);
}

void RigidBodySystem::set_clock(real time, std::uint64_t steps) {
  time_ = time;
  steps_ = steps;
}

std::size_t RigidBodySystem::body_count() const { return impl_->bodies.size(); }

std::optional<std::uint32_t> RigidBodySystem::index_of(GlobalId gid) const {
  const auto& g = impl_->bodies.gid;
  const auto it = thrust::lower_bound(detail::par(), g.begin(), g.end(), gid);
  if (it == g.end()) return std::nullopt;
  const auto index = static_cast<std::uint32_t>(it - g.begin());
  if (detail::read_element(g, index) != gid) return std::nullopt;
  return index;
}

BodyState RigidBodySystem::body_state(std::uint32_t i) const {
  const detail::DeviceBodies& b = impl_->bodies;
  return {detail::read_element(b.gid, i), b.position.at(i), b.orientation.at(i), b.velocity.at(i),
          b.angular_velocity.at(i)};
}

std::vector<BodyState> RigidBodySystem::body_states() const {
  const detail::DeviceBodies& b = impl_->bodies;
  const std::size_t n = b.size();
  auto down = [](const thrust::device_vector<real>& v) { return detail::download(v); };
  const std::vector<GlobalId> gid = detail::download(b.gid);
  const auto px = down(b.position.x), py = down(b.position.y), pz = down(b.position.z);
  const auto qw = down(b.orientation.w), qx = down(b.orientation.x), qy = down(b.orientation.y),
             qz = down(b.orientation.z);
  const auto vx = down(b.velocity.x), vy = down(b.velocity.y), vz = down(b.velocity.z);
  const auto wx = down(b.angular_velocity.x), wy = down(b.angular_velocity.y), wz = down(b.angular_velocity.z);
  std::vector<BodyState> out(n);
  for (std::size_t i = 0; i < n; ++i)
    out[i] = {gid[i], {px[i], py[i], pz[i]}, {qw[i], qx[i], qy[i], qz[i]}, {vx[i], vy[i], vz[i]}, {wx[i], wy[i], wz[i]}};
  return out;
}

void RigidBodySystem::set_velocity(std::uint32_t i, Vec3 v, Vec3 w) {
  detail::DeviceBodies& b = impl_->bodies;
  if (i >= b.size()) throw std::out_of_range("set_velocity: body index " + std::to_string(i) + " out of range");
  if (impl_->motion[i] == Motion::Fixed) return;
  b.velocity.put(i, v);
  b.angular_velocity.put(i, w);
}

void RigidBodySystem::set_pose(std::uint32_t i, Vec3 position, Quat orientation) {
  detail::DeviceBodies& b = impl_->bodies;
  if (i >= b.size()) throw std::out_of_range("set_pose: body index " + std::to_string(i) + " out of range");
  if (impl_->motion[i] == Motion::Fixed) throw std::logic_error("set_pose: a fixed body does not move");
  b.position.put(i, position);
  b.orientation.put(i, orientation);
}

namespace {

/// Writes uploaded kinematic states into the bodies' arrays (set_kinematic_states).
struct ScatterKinematicStates {
  const detail::KinematicState* states;
  detail::BodyView bodies;
  TRACKCOSIM_HD void operator()(std::size_t k) const {
    const detail::KinematicState& s = states[k];
    bodies.position.set(s.index, s.position);
    bodies.orientation.set(s.index, s.orientation);
    bodies.velocity.set(s.index, s.velocity);
    bodies.angular_velocity.set(s.index, s.angular_velocity);
  }
};

}  // namespace

void RigidBodySystem::set_kinematic_states(const std::vector<std::uint32_t>& indices,
                                           const std::vector<BodyState>& states) {
  if (indices.size() != states.size())
    throw std::invalid_argument("set_kinematic_states: " + std::to_string(indices.size()) + " indices, " +
                                std::to_string(states.size()) + " states");
  detail::DeviceBodies& b = impl_->bodies;
  std::vector<detail::KinematicState> packed(indices.size());
  for (std::size_t k = 0; k < indices.size(); ++k) {
    const std::uint32_t i = indices[k];
    if (i >= b.size())
      throw std::out_of_range("set_kinematic_states: body index " + std::to_string(i) + " out of range");
    if (impl_->motion[i] == Motion::Fixed) throw std::logic_error("set_kinematic_states: a fixed body does not move");
    packed[k] = {i, states[k].position, states[k].orientation, states[k].velocity, states[k].angular_velocity};
  }
  if (packed.empty()) return;
  detail::upload(impl_->kinematic_states, packed);
  thrust::for_each(detail::par(), thrust::counting_iterator<std::size_t>(0),
                   thrust::counting_iterator<std::size_t>(packed.size()),
                   ScatterKinematicStates{detail::raw(impl_->kinematic_states), b.view()});
}

void RigidBodySystem::set_applied_force(std::uint32_t i, Vec3 f, Vec3 t) {
  detail::DeviceBodies& b = impl_->bodies;
  if (i >= b.size()) throw std::out_of_range("set_applied_force: body index " + std::to_string(i) + " out of range");
  b.force.put(i, f);
  b.torque.put(i, t);
}

void RigidBodySystem::set_compliant_bodies(std::vector<CompliantBody> bodies) {
  std::sort(bodies.begin(), bodies.end(), [](const CompliantBody& a, const CompliantBody& b) { return a.gid < b.gid; });
  std::vector<GlobalId> gid;
  std::vector<real> stiffness, damping;
  for (const CompliantBody& c : bodies) {
    const std::string who = "compliant body gid " + std::to_string(c.gid);
    if (!(c.stiffness > 0) || !std::isfinite(c.stiffness))
      throw std::invalid_argument(who + ": stiffness must be > 0 N/m, got " + std::to_string(c.stiffness));
    if (!(c.damping >= 0) || !std::isfinite(c.damping))
      throw std::invalid_argument(who + ": damping must be >= 0 N s/m, got " + std::to_string(c.damping));
    if (!gid.empty() && gid.back() == c.gid) throw std::invalid_argument(who + " is listed twice");
    gid.push_back(c.gid);
    stiffness.push_back(c.stiffness);
    damping.push_back(c.damping);
  }
  detail::upload(impl_->compliant.gid, gid);
  detail::upload(impl_->compliant.stiffness, stiffness);
  detail::upload(impl_->compliant.damping, damping);
}

void RigidBodySystem::set_bilateral_rows(std::vector<BilateralRow> rows) {
  for (const BilateralRow& r : rows)
    if (r.body_a >= body_count() || r.body_b >= body_count())
      throw std::invalid_argument("bilateral row refers to a body index beyond " + std::to_string(body_count()));
  impl_->rows = std::move(rows);
  impl_->upload_rows();
}

std::vector<real> RigidBodySystem::bilateral_impulses() const {
  return detail::download(impl_->ws.row_impulse.gamma.x);
}

ContactImpulses RigidBodySystem::contact_impulses() const {
  const Impl& m = *impl_;
  ContactImpulses out;
  out.contacts = m.contacts.contacts().download();
  const auto& g = m.ws.contact_impulse.gamma;
  detail::download(g.x, out.gamma_n);
  detail::download(g.y, out.gamma_u);
  detail::download(g.z, out.gamma_w);
  // From the triplets in the contact frames, as the solver applied them: the warm-start store
  // holds the same impulses only until a distributed terrain merges its neighbours' into it.
  const ContactList& c = out.contacts;
  out.impulse_on_b.resize(out.gamma_n.size());
  for (std::size_t i = 0; i < out.impulse_on_b.size(); ++i) {
    const Vec3 n = c.normal(i);
    Vec3 u, w;
    detail::tangent_basis(n, u, w);
    out.impulse_on_b[i] = out.gamma_n[i] * n + out.gamma_u[i] * u + out.gamma_w[i] * w;
  }
  return out;
}

std::uint64_t RigidBodySystem::state_hash() const {
  std::uint64_t hash = 1469598103934665603ull;  // FNV-1a
  auto mix = [&hash](const thrust::device_vector<real>& v) {
    const std::vector<real> host = detail::download(v);
    for (real x : host) {
      std::uint64_t bits;
      std::memcpy(&bits, &x, sizeof bits);
      for (int k = 0; k < 8; ++k) hash = (hash ^ ((bits >> (8 * k)) & 0xff)) * 1099511628211ull;
    }
  };
  const detail::DeviceBodies& b = impl_->bodies;
  for (const auto* v : {&b.position.x, &b.position.y, &b.position.z, &b.orientation.w, &b.orientation.x,
                        &b.orientation.y, &b.orientation.z, &b.velocity.x, &b.velocity.y, &b.velocity.z,
                        &b.angular_velocity.x, &b.angular_velocity.y, &b.angular_velocity.z})
    mix(*v);
  return hash;
}

}  // namespace trackcosim::gpu
