// One time step, in the order of Tasora-Negrut algorithm 1 and DESIGN.md's terrain step:
// collision -> prepare -> solve -> integrate, each timed as a StepPhase.

#include "gpu/dynamics/rigid_body_system.h"

#include <algorithm>
#include <cstring>

#include <thrust/binary_search.h>

#include "gpu/collision/detail/stage_clock.h"
#include "gpu/dynamics/detail/contact_preparation.h"
#include "gpu/dynamics/detail/integrator.h"
#include "gpu/dynamics/detail/system_validation.h"
#include "gpu/dynamics/detail/world_shapes.h"


namespace trackcosim::gpu {

struct RigidBodySystem::Impl {
  explicit Impl(const BodySet& bodies, const StepSettings& settings)
      : shapes(bodies), detector(settings.collision), motion(bodies.motion) {
    for (std::size_t i = 0; i < bodies.size(); ++i)
      if (bodies.motion[i] != Motion::Dynamic) immovable_gids.push_back(bodies.gid[i]);
  }

  detail::DeviceBodies bodies;
  detail::WorldShapes shapes;
  CollisionDetector detector;
  std::vector<Motion> motion;
  std::vector<GlobalId> immovable_gids;  ///< fixed and kinematic bodies, sorted (usually a few walls)
  ContactList contacts;  ///< this step's contacts with at least one dynamic body
  std::vector<BilateralRow> rows;
  detail::SolverWorkspace ws;
  detail::ContactUpload upload;
  detail::WarmStartStore warm;

  /// Drops contacts the solver cannot act on (both bodies fixed or kinematic).
  void keep_solvable(ContactList&& all);
  void upload_rows();
};

namespace {

using PhaseClock = detail::EnumClock<StepPhase, kStepPhaseCount>;

template <class T>
void keep_entries(std::vector<T>& v, const std::vector<std::size_t>& kept) {
  std::vector<T> out(kept.size());
  for (std::size_t k = 0; k < kept.size(); ++k) out[k] = v[kept[k]];
  v.swap(out);
}

}  // namespace

void RigidBodySystem::Impl::keep_solvable(ContactList&& all) {
  contacts = std::move(all);
  if (immovable_gids.size() < 2) return;
  auto immovable = [this](GlobalId gid) {
    return std::binary_search(immovable_gids.begin(), immovable_gids.end(), gid);
  };
  std::vector<std::size_t> kept;
  kept.reserve(contacts.size());
  for (std::size_t i = 0; i < contacts.size(); ++i)
    if (!immovable(contacts.gid_b[i]) || !immovable(contacts.gid_a[i])) kept.push_back(i);
  if (kept.size() == contacts.size()) return;
  keep_entries(contacts.gid_a, kept);
  keep_entries(contacts.gid_b, kept);
  keep_entries(contacts.shape_a, kept);
  keep_entries(contacts.shape_b, kept);
  for (auto* v : {&contacts.distance, &contacts.nx, &contacts.ny, &contacts.nz, &contacts.ax, &contacts.ay,
                  &contacts.az, &contacts.bx, &contacts.by, &contacts.bz})
    keep_entries(*v, kept);
}

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
  ws.rows.body_a.assign(a.begin(), a.end());
  ws.rows.body_b.assign(b.begin(), b.end());
  ws.rows.linear_a.assign(la[0], la[1], la[2]);
  ws.rows.angular_a.assign(aa[0], aa[1], aa[2]);
  ws.rows.linear_b.assign(lb[0], lb[1], lb[2]);
  ws.rows.angular_b.assign(ab[0], ab[1], ab[2]);
  ws.rows.bias.assign(bias.begin(), bias.end());
  ws.rows.eta.resize(n);
}

RigidBodySystem::RigidBodySystem(const BodySet& bodies, StepSettings settings) : settings_(settings) {
  detail::validate_bodies(bodies);
  detail::validate_step_settings(settings_);
  impl_ = std::make_unique<Impl>(bodies, settings_);
  impl_->bodies.upload(bodies);
  impl_->upload_rows();
}

RigidBodySystem::~RigidBodySystem() = default;

void RigidBodySystem::step() {
  Impl& m = *impl_;
  stats_ = StepStats{};
  PhaseClock clock(stats_.phase_seconds);
  const real h = settings_.step_size;
  clock.run(StepPhase::Collision, [&] { m.keep_solvable(m.detector.detect(m.shapes.update(m.bodies))); });
  stats_.contacts = m.contacts.size();
  for (real d : m.contacts.distance) stats_.max_penetration = std::max(stats_.max_penetration, -d);

  clock.run(StepPhase::Prepare, [&] {
    detail::compute_free_velocities(m.bodies, h, settings_.gravity);
    detail::prepare_contacts(m.contacts, m.bodies, h, settings_.solver, m.warm, m.upload, m.ws);
    detail::prepare_rows(m.bodies, m.ws);
    m.ws.slots.resize(2 * (m.ws.contacts.size() + m.ws.rows.size()));
    m.ws.slot_lists.build(m.ws.contacts, m.ws.rows, m.bodies.size());
    if (settings_.solver.method == SolverMethod::Jacobi) detail::prepare_jacobi_steps(m.bodies, m.ws, settings_.solver);
  });

  detail::SolveResult solved;
  clock.run(StepPhase::Solve, [&] {
    solved = settings_.solver.method == SolverMethod::Jacobi ? detail::solve_jacobi(m.bodies, m.ws, settings_.solver)
                                                             : detail::solve_apgd(m.bodies, m.ws, settings_.solver);
  });
  stats_.iterations = solved.iterations;
  stats_.residual = solved.residual;
  stats_.residual_history = std::move(solved.history);

  clock.run(StepPhase::Integrate, [&] {
    detail::integrate_positions(m.bodies, h);
    detail::store_warm_start(m.upload, m.ws, m.warm);
  });
  stats_.kinetic_energy = detail::kinetic_energy(m.bodies, m.ws.partials);
  time_ += h;
  ++steps_;
}

std::size_t RigidBodySystem::body_count() const { return impl_->bodies.size(); }

std::optional<std::uint32_t> RigidBodySystem::index_of(GlobalId gid) const {
  const auto& g = impl_->bodies.gid;
  const auto it = thrust::lower_bound(g.begin(), g.end(), gid);
  if (it == g.end() || *it != gid) return std::nullopt;
  return static_cast<std::uint32_t>(it - g.begin());
}

BodyState RigidBodySystem::body_state(std::uint32_t i) const {
  const detail::DeviceBodies& b = impl_->bodies;
  return {b.gid[i], b.position.at(i), b.orientation.at(i), b.velocity.at(i), b.angular_velocity.at(i)};
}

std::vector<BodyState> RigidBodySystem::body_states() const {
  const detail::DeviceBodies& b = impl_->bodies;
  const std::size_t n = b.size();
  auto down = [n](const thrust::device_vector<real>& v) { return std::vector<real>(v.begin(), v.end()); };
  const std::vector<GlobalId> gid(b.gid.begin(), b.gid.end());
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

void RigidBodySystem::set_applied_force(std::uint32_t i, Vec3 f, Vec3 t) {
  detail::DeviceBodies& b = impl_->bodies;
  if (i >= b.size()) throw std::out_of_range("set_applied_force: body index " + std::to_string(i) + " out of range");
  b.force.put(i, f);
  b.torque.put(i, t);
}

void RigidBodySystem::set_bilateral_rows(std::vector<BilateralRow> rows) {
  for (const BilateralRow& r : rows)
    if (r.body_a >= body_count() || r.body_b >= body_count())
      throw std::invalid_argument("bilateral row refers to a body index beyond " + std::to_string(body_count()));
  impl_->rows = std::move(rows);
  impl_->upload_rows();
}

std::vector<real> RigidBodySystem::bilateral_impulses() const {
  const auto& g = impl_->ws.row_impulse.gamma.x;
  return std::vector<real>(g.begin(), g.end());
}

ContactImpulses RigidBodySystem::contact_impulses() const {
  const Impl& m = *impl_;
  ContactImpulses out;
  out.contacts = m.contacts;
  const auto& g = m.ws.contact_impulse.gamma;
  out.gamma_n.assign(g.x.begin(), g.x.end());
  out.gamma_u.assign(g.y.begin(), g.y.end());
  out.gamma_w.assign(g.z.begin(), g.z.end());
  const auto& p = m.warm.impulse;
  const std::vector<real> px(p.x.begin(), p.x.end()), py(p.y.begin(), p.y.end()), pz(p.z.begin(), p.z.end());
  out.impulse_on_b.resize(px.size());
  for (std::size_t i = 0; i < px.size(); ++i) out.impulse_on_b[i] = {px[i], py[i], pz[i]};
  return out;
}

std::uint64_t RigidBodySystem::state_hash() const {
  std::uint64_t hash = 1469598103934665603ull;  // FNV-1a
  auto mix = [&hash](const thrust::device_vector<real>& v) {
    const std::vector<real> host(v.begin(), v.end());
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
