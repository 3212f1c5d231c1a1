// One time step, in the order of Phase:
//   collision -> assemble (explicit forces, rows) -> solve (KKT, active set) -> integrate.
// Velocity-level, semi-implicit Euler: v+ from the KKT solve, then x+ = x + h v+ and
// q+ = normalize(q + h/2 (0, w+) q). Constraint forces are impulses of the step (N s).

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

#include "vehicle_node/mbd/system_impl.h"

namespace trackcosim::vehicle {

using namespace detail;

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }
void add_seconds(StepReport& r, Phase p, double s) { r.seconds[static_cast<std::size_t>(p)] += s; }


// Relative slip slower than this keeps the fixed tangent basis (world X projected), so a
// sticking contact's rows keep their meaning from step to step.
constexpr double kSlipAlignSpeed = 1e-3;  // m/s
}  // namespace

void MultibodySystem::Impl::build_contact_rows(double h) {
  const Spook sp = Spook::make(h, settings.relaxation_steps, settings.contact_compliance);
  first_contact_row = static_cast<int>(rows.size());
  for (const Contact& c : contacts) {
    const V3 n = c.geo.normal, ra = c.geo.point - bodies.x[c.body_a];
    const V3 rb = c.body_b >= 0 ? V3(c.geo.point - bodies.x[c.body_b]) : V3::Zero();
    V3 vrel = bodies.point_velocity(c.body_a, c.geo.point);
    if (c.body_b >= 0) vrel -= bodies.point_velocity(c.body_b, c.geo.point);
    const double vn = vrel.dot(n);
    const V3 vt = vrel - vn * n;
    V3 t1, t2;
    tangent_basis(n, vt.norm() > kSlipAlignSpeed ? vt : V3::UnitX(), t1, t2);
    auto warm_it = warm.find(c.key);
    const int normal = static_cast<int>(rows.size());
    const V3 dirs[3] = {n, t1, t2};
    for (int k = 0; k < 3; ++k) {
      ConstraintRow r;
      r.body_a = c.body_a;
      r.body_b = c.body_b;
      r.ja = stack(dirs[k], ra.cross(dirs[k]));
      if (c.body_b >= 0) r.jb = -stack(dirs[k], rb.cross(dirs[k]));
      r.sigma = sp.sigma;
      if (k == 0) {
        // Unilateral: J v+ + sigma lambda >= rhs. A positive gap may close within the step
        // (speculative contact); a penetration is removed the SPOOK way.
        r.rhs = c.geo.gap >= 0.0 ? -c.geo.gap / h : -sp.a * c.geo.gap + sp.b * vn;
        r.lo = 0.0;
        r.state = c.geo.gap > 0.0 ? RowState::kAtLower : RowState::kFree;
      } else {
        r.normal_row = normal;
        r.mu = c.mu;
      }
      if (warm_it != warm.end()) {
        r.state = warm_it->second.state[k];
        r.lambda = warm_it->second.lambda[k];
        if (k > 0) r.bound_hint = c.mu * std::max(0.0, warm_it->second.lambda[0]);
      }
      rows.push_back(r);
    }
  }
}

// Compliance floor relative to each row's effective mass (docs/vehicle-engine.md, "Compliance
// relative to the effective mass"): sigma_r >= kappa (J M^-1 J^T)_rr. A row with effective mass
// m_r and SPOOK sigma is a spring of omega h = sqrt(4 Y / (sigma m_r)); beyond omega h =
// sqrt(4 Y / kappa) (~21 with kappa = 1e-3, d = 2) the step cannot see the stiffness, but the
// KKT matrix still pays for it: a 0.34 kg shoe's contact with eps = 1e-9 m/N has sigma =
// 4.4e-4 against a diagonal of ~4-8 1/kg (1/m plus r^2/I), ~1e-4, and its redundant pad and
// friction rows are then so close to singular that the active set stops converging (Report 4
// in REQUESTS.md). Joint rows keep their compliance: their accuracy is what tests check.
void MultibodySystem::Impl::floor_regularization() {
  const double kappa = settings.relative_compliance_floor;
  if (kappa <= 0.0) return;
  auto diagonal = [&](int body, const V6& j) {
    if (body < 0 || bodies.fixed(body)) return 0.0;
    const V3 lin = j.head<3>(), ang = j.tail<3>();
    return lin.squaredNorm() / bodies.mass[body] + ang.dot(bodies.inv_inertia_world(body) * ang);
  };
  for (std::size_t i = first_contact_row; i < rows.size(); ++i) {
    ConstraintRow& r = rows[i];
    r.sigma = std::max(r.sigma, kappa * (diagonal(r.body_a, r.ja) + diagonal(r.body_b, r.jb)));
  }
}

namespace {
void integrate_rotation(Eigen::Quaterniond& q, const V3& dtheta) {
  // q+ = normalize(q + 1/2 (0, dtheta) q), dtheta a world-frame rotation vector.
  const Eigen::Quaterniond wq(0.0, dtheta.x(), dtheta.y(), dtheta.z());
  q.coeffs() += 0.5 * (wq * q).coeffs();
  q.normalize();
}
}  // namespace

void MultibodySystem::Impl::project_positions() {
  // Joint rows move back by their violation at the new positions; all other rows hold still.
  violation.assign(rows.size(), 0.0);
  for (const Joint& j : joints) joint_row_violations(j, bodies, &violation[j.first_row]);
  solver.project(rows, violation, correction);
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const int k = bodies.dof[i];
    if (k < 0) continue;
    bodies.x[i] += correction[k].head<3>();
    integrate_rotation(bodies.q[i], correction[k].tail<3>());
  }
}

void MultibodySystem::Impl::step(double h) {
  if (!(h > 0.0) || !std::isfinite(h)) throw std::invalid_argument("step: h must be > 0 and finite");
  report = StepReport{};
  const int nbody = static_cast<int>(bodies.size());

  // ---- collision
  auto t0 = Clock::now();
  collision.collide(bodies, ground.get(), ground_friction, friction, settings.contact_margin, contacts);
  add_seconds(report, Phase::kCollision, since(t0));

  // ---- assemble: explicit forces -> momentum p = M v + h f; rows
  t0 = Clock::now();
  force.assign(nbody, V3::Zero());
  torque.assign(nbody, V3::Zero());
  for (int i = 0; i < nbody; ++i) {
    force[i] = bodies.mass[i] * gravity + bodies.f_ext[i];
    torque[i] = bodies.t_ext[i];
    if (const double rate = bodies.world_damping[i]; rate > 0.0) {
      // Explicit: v+ = v (1 - rate h) alone, so a rate above 1 / h would reverse the velocity.
      if (rate * h > 1.0)
        throw std::invalid_argument("step: the world damping of '" + bodies.name[i] + "' (" + std::to_string(rate) +
                                    " /s) exceeds 1 / h = " + std::to_string(1.0 / h) + " /s");
      force[i] -= rate * bodies.mass[i] * bodies.v[i];
      torque[i] -= rate * (bodies.inertia_world(i) * bodies.w[i]);
    }
  }
  for (const SpringDamper& s : springs) apply_spring(s, bodies, force, torque);
  rows.clear();
  const Spook joint_spook = Spook::make(h, settings.relaxation_steps, settings.joint_compliance);
  for (Joint& j : joints) append_joint_rows(j, bodies, joint_spook, rows);
  for (Joint& j : joints)
    if (j.limited) append_limit_rows(j, bodies, joint_spook, h, rows);
  for (Motor& m : motors) {
    const Joint& j = joints[m.joint];
    const V3 n = joint_axis_world(j, bodies);
    m.row = -1;
    m.applied_torque = 0.0;
    if (m.mode == MotorMode::kTorque) {
      // Torque control: +T n on b, -T n on a.
      torque[j.b] += m.torque * n;
      torque[j.a] -= m.torque * n;
      m.applied_torque = m.torque;
    } else if (m.mode == MotorMode::kSpeed) {
      // Speed control: (w_b - w_a) . n = speed, |impulse| <= max_torque h.
      ConstraintRow r;
      r.body_a = j.a;
      r.body_b = j.b;
      r.ja = stack(V3::Zero(), -n);
      r.jb = stack(V3::Zero(), n);
      // A velocity row has no position to relax: its compliance is a rotational damping,
      // slip = (joint_compliance / h) * impulse = joint_compliance * torque.
      r.sigma = settings.joint_compliance / h;
      r.rhs = m.speed;
      if (std::isfinite(m.max_torque)) r.lo = -m.max_torque * h, r.hi = m.max_torque * h;
      r.state = m.state;
      m.row = static_cast<int>(rows.size());
      rows.push_back(r);
    }
  }
  apply_body_drives(h);
  build_contact_rows(h);
  floor_regularization();
  momentum.resize(bodies.moving_count);
  inertia_world.resize(bodies.moving_count);
  for (int i = 0; i < nbody; ++i) {
    const int k = bodies.dof[i];
    if (k < 0) continue;
    inertia_world[k] = bodies.inertia_world(i);
    const V3 l = inertia_world[k] * bodies.w[i];
    // Gyroscopic torque -w x (I w), explicit.
    momentum[k] = stack(bodies.mass[i] * bodies.v[i] + h * force[i], l + h * (torque[i] - bodies.w[i].cross(l)));
  }
  add_implicit_loads(h);
  add_seconds(report, Phase::kAssemble, since(t0));

  // ---- solve
  const KktResult kr = solver.solve(bodies, momentum, inertia_world, added_mass, rows,
                                    settings.max_active_set_iterations, new_velocity);
  add_seconds(report, Phase::kAssemble, kr.assemble_seconds);
  add_seconds(report, Phase::kSolve, kr.solve_seconds);

  // ---- integrate and record reactions
  t0 = Clock::now();
  for (int i = 0; i < nbody; ++i) {
    const int k = bodies.dof[i];
    if (k < 0) continue;
    bodies.v[i] = new_velocity[k].head<3>();
    bodies.w[i] = new_velocity[k].tail<3>();
    bodies.x[i] += h * bodies.v[i];
    integrate_rotation(bodies.q[i], h * bodies.w[i]);
  }
  if (settings.position_projection && !joints.empty()) project_positions();
  for (Motor& m : motors) {
    if (m.row < 0) continue;
    m.state = rows[m.row].state;
    m.applied_torque = rows[m.row].lambda / h;
  }
  for (BodyDrive& c : body_drives)
    if (c.row >= 0) c.applied_force = rows[c.row].lambda / h;
  for (Joint& j : joints)
    if (j.limited) j.limit_state[0] = rows[j.limit_row].state, j.limit_state[1] = rows[j.limit_row + 1].state;
  warm.clear();
  contact_impulse.resize(contacts.size());
  for (std::size_t c = 0; c < contacts.size(); ++c) {
    const ConstraintRow* r = &rows[first_contact_row + 3 * c];
    ContactWarmStart ws;
    contact_impulse[c] = V3::Zero();
    for (int k = 0; k < 3; ++k) {
      ws.state[k] = r[k].state;
      ws.lambda[k] = r[k].lambda;
      contact_impulse[c] += r[k].lambda * r[k].ja.head<3>();
    }
    warm.emplace(contacts[c].key, ws);
  }
  time += h;
  last_h = h;
  add_seconds(report, Phase::kIntegrate, since(t0));

  report.contacts = static_cast<int>(contacts.size());
  report.constraint_rows = static_cast<int>(rows.size());
  report.solver_iterations = kr.iterations;
  report.factorizations = kr.factorizations;
  report.converged = kr.converged;
  report.residual = kr.residual;
  report.bound_excess = kr.bound_excess;
  report.pattern_reanalyzed = kr.reanalyzed;
}

}  // namespace trackcosim::vehicle
