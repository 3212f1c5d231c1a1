#pragma once
// The two kinds of constraints the CCP solver iterates over, behind one interface so that the
// Jacobi and APGD passes are written once (solver_passes.h):
//
//   frictional contacts (set A, Tasora-Negrut eq. 12): three rows (n, u, w) per contact,
//     D_i^T v = [n u w]^T ((v_B + w_B x r_B) - (v_A + w_A x r_A)),  b_i = (Phi_i / h, 0, 0),
//     projected on the friction cone;
//   bilateral scalar rows (set B, eq. 13): J^T v + b = 0, no projection; stored in the .n
//     component of the same triplet type so one solver vector type serves both;
//   rolling resistance (docs/ccp.md): two rows (u, w) per contact on the bodies' relative
//     angular velocity, R* [u w]^T (w_B - w_A), whose impulse lies in the disc of radius
//     mu_r gamma_n of its contact (stored in .u and .w; .n stays 0).
//
// Per contact we stream n, r_A, r_B (the tangents are rebuilt from n), eta, b, mu and the body
// indices: 12 reals + 2 indices, and one more real (eps, contact_compliance.h) only in scenes
// with compliant bodies. The impulse D_i gamma_i goes into two reduction slots, 2i for
// body A and 2i + 1 for body B (fig. 8 of the paper); bilateral rows use the slots after the
// contacts'. Only .cu files include this header.

#include <cstdint>

#include <thrust/device_vector.h>

#include "gpu/dynamics/detail/cone_projection.h"
#include "gpu/dynamics/detail/device_bodies.h"

namespace trackcosim::gpu::detail {

/// One reduction slot: the impulse and angular impulse (world frame) a constraint gives one
/// body. Stored as one 48-byte record, not six arrays: the body pass reads a body's slots
/// scattered over the buffer, and one record is one or two cache lines where six arrays are six.
struct SlotImpulse {
  Vec3 linear, angular;
};
static_assert(sizeof(SlotImpulse) == 6 * sizeof(real));

struct SlotView {
  SlotImpulse* slot;
  TRACKCOSIM_HD void write(std::size_t i, Vec3 p, Vec3 l) const { slot[i] = SlotImpulse{p, l}; }
  TRACKCOSIM_HD void add_angular(std::size_t i, Vec3 l) const { slot[i].angular = slot[i].angular + l; }
};

/// The step of a row whose preconditioner is its own eta (rolling pairs, bilateral rows): t, or t p.
TRACKCOSIM_HD inline real scaled_step(bool scaled, real p, real t) { return scaled ? t * p : t; }
/// |d|^2, or d.d / p in the metric of a step scaled by p (0 for a row the solver cannot move).
TRACKCOSIM_HD inline real scaled_norm2(bool scaled, real p, ConeImpulse d) {
  if (!scaled) return dot(d, d);
  return p > 0 ? dot(d, d) / p : real(0);
}

struct ContactBlockView {
  std::size_t count;
  const std::uint32_t *body_a, *body_b;
  Vec3View normal, arm_a, arm_b;  ///< arms: contact point minus body centre, world frame
  const real *eta, *bias, *mu;
  const real* jacobi_step;  ///< omega eta_i, divided by the bodies' constraint count if asked
  SlotView slots;
  std::size_t first_slot;
  /// eps_i of compliant contacts (0 for rigid ones); nullptr when the scene has none.
  const real* compliance = nullptr;
  /// Distributed solves: contacts with 0 are solved by another rank (their slots arrive by
  /// message); nullptr on a single rank.
  const std::uint8_t* solve_here = nullptr;
  /// Preconditioned APGD (SolverSettings::preconditioned): the normal row's step scale
  /// p_n = 1 / (N_nn + eps) and the tangent rows' p_t = 2 / (N_uu + N_ww); nullptr without.
  const real *scale_n = nullptr, *scale_t = nullptr;

  TRACKCOSIM_HD const std::uint8_t* solve_mask() const { return solve_here; }

  /// What one iteration needs of contact i, read once: bodies, frame and arms.
  struct Frame {
    std::uint32_t a, b;
    Vec3 n, u, w, arm_a, arm_b;
  };
  TRACKCOSIM_HD Frame frame(std::size_t i) const {
    Frame f{body_a[i], body_b[i], normal.get(i), {}, {}, arm_a.get(i), arm_b.get(i)};
    tangent_basis(f.n, f.u, f.w);
    return f;
  }

  /// D_i^T v + b_i + eps_i gamma_i with the bodies' current solver velocities: the gradient
  /// of the CCP at the constraint's impulse gamma (eps only for compliant contacts).
  TRACKCOSIM_HD ConeImpulse velocity(std::size_t i, const Frame& f, const BodyView& b, ConeImpulse gamma) const {
    const Vec3 va = b.velocity.get(f.a) + cross(b.angular_velocity.get(f.a), f.arm_a);
    const Vec3 vb = b.velocity.get(f.b) + cross(b.angular_velocity.get(f.b), f.arm_b);
    const Vec3 rel = vb - va;
    const real soft = compliance != nullptr ? compliance[i] * gamma.n : real(0);
    return {dot(f.n, rel) + bias[i] + soft, dot(f.u, rel), dot(f.w, rel)};
  }
  /// eps_i |d_n|^2: the compliance's share of d^T (N + E) d in the APGD line search.
  TRACKCOSIM_HD real compliance_curvature(std::size_t i, ConeImpulse d) const {
    return compliance != nullptr ? compliance[i] * d.n * d.n : real(0);
  }
  TRACKCOSIM_HD ConeImpulse project(std::size_t i, ConeImpulse g) const { return project_on_cone(g, mu[i]); }
  TRACKCOSIM_HD real step_scale(std::size_t i) const { return eta[i]; }
  /// APGD's projected gradient step from y: Pi(y - t g), or preconditioned Pi_P(y - t P g), the
  /// projection in the metric P^-1. In the coordinates (n, u / s, w / s), s = sqrt(p_t / p_n),
  /// that metric is Euclidean (over p_n) and the cone |(u, w)| <= mu n is |(u', w')| <= (mu / s) n.
  TRACKCOSIM_HD ConeImpulse gradient_step(std::size_t i, ConeImpulse y, ConeImpulse g, real t) const {
    if (scale_n == nullptr) return project(i, axpy(-t, g, y));
    const real pn = scale_n[i], pt = scale_t[i];
    const real s = std::sqrt(pt / pn);
    const ConeImpulse z{y.n - t * pn * g.n, (y.u - t * pt * g.u) / s, (y.w - t * pt * g.w) / s};
    const ConeImpulse q = project_on_cone(z, mu[i] / s);
    return {q.n, q.u * s, q.w * s};
  }
  /// |d|^2 in the metric of gradient_step: d.d, or d^T P^-1 d.
  TRACKCOSIM_HD real step_norm2(std::size_t i, ConeImpulse d) const {
    if (scale_n == nullptr) return dot(d, d);
    return d.n * d.n / scale_n[i] + (d.u * d.u + d.w * d.w) / scale_t[i];
  }

  /// World impulse on B of the triplet g; A receives its opposite.
  TRACKCOSIM_HD static Vec3 world_impulse(const Frame& f, ConeImpulse g) { return g.n * f.n + g.u * f.u + g.w * f.w; }
  /// Writes D_i g into the two reduction slots of contact i.
  TRACKCOSIM_HD void scatter(std::size_t i, const Frame& f, ConeImpulse g) const {
    const Vec3 p = world_impulse(f, g);
    slots.write(first_slot + 2 * i, -p, -cross(f.arm_a, p));
    slots.write(first_slot + 2 * i + 1, p, cross(f.arm_b, p));
  }
};

struct RowBlockView {
  std::size_t count;
  const std::uint32_t *body_a, *body_b;
  Vec3View linear_a, angular_a, linear_b, angular_b;
  const real *eta, *bias;
  const real* jacobi_step;
  SlotView slots;
  std::size_t first_slot;
  bool preconditioned = false;  ///< APGD steps scaled by eta (SolverSettings::preconditioned)

  struct Frame {
    std::uint32_t a, b;
  };
  TRACKCOSIM_HD Frame frame(std::size_t i) const { return {body_a[i], body_b[i]}; }
  TRACKCOSIM_HD const std::uint8_t* solve_mask() const { return nullptr; }  // rows are never split over ranks

  TRACKCOSIM_HD ConeImpulse velocity(std::size_t i, const Frame& f, const BodyView& b, ConeImpulse) const {
    const real jv = dot(linear_a.get(i), b.velocity.get(f.a)) + dot(angular_a.get(i), b.angular_velocity.get(f.a)) +
                    dot(linear_b.get(i), b.velocity.get(f.b)) + dot(angular_b.get(i), b.angular_velocity.get(f.b));
    return {jv + bias[i], 0, 0};
  }
  TRACKCOSIM_HD ConeImpulse project(std::size_t, ConeImpulse g) const { return {g.n, 0, 0}; }
  TRACKCOSIM_HD real compliance_curvature(std::size_t, ConeImpulse) const { return 0; }
  TRACKCOSIM_HD real step_scale(std::size_t i) const { return eta[i]; }
  TRACKCOSIM_HD ConeImpulse gradient_step(std::size_t i, ConeImpulse y, ConeImpulse g, real t) const {
    return project(i, axpy(-scaled_step(preconditioned, eta[i], t), g, y));
  }
  TRACKCOSIM_HD real step_norm2(std::size_t i, ConeImpulse d) const { return scaled_norm2(preconditioned, eta[i], d); }
  TRACKCOSIM_HD void scatter(std::size_t i, const Frame&, ConeImpulse g) const {
    slots.write(first_slot + 2 * i, g.n * linear_a.get(i), g.n * angular_a.get(i));
    slots.write(first_slot + 2 * i + 1, g.n * linear_b.get(i), g.n * angular_b.get(i));
  }
};

/// Rolling resistance of the contacts, one entry per contact (same index). The impulse rho is
/// in force units (an impulse at the lever arm R*): the rows R* e . (w_B - w_A) then have the
/// scale of the contact rows, so that APGD's single step size suits both. Body B receives the
/// angular impulse R* (rho_u u + rho_w w), A its opposite. The bound mu_r gamma_n reads the
/// contact impulses of the same pass (`normal_impulse`, their .x is gamma_n).
/// The rows have no slots of their own: scatter adds the torque into its contact's two slots,
/// after the contact pass has written them. A body's sum, the slots a distributed solve sends
/// and the Jacobi split are then those of the contacts alone, on any number of ranks.
struct RollingBlockView {
  std::size_t count;
  const std::uint32_t *body_a, *body_b;  ///< the contacts'
  Vec3View normal;                       ///< the contacts'
  const real *radius, *eta;              ///< R* and 2 / trace of the two rows
  const real* jacobi_step;
  real mu;                               ///< rolling_friction
  Vec3View normal_impulse;               ///< the contacts' current impulses (n, u, w)
  SlotView slots;
  std::size_t first_slot;                    ///< the contacts' (0)
  const std::uint8_t* solve_here = nullptr;  ///< the contacts' mask
  bool preconditioned = false;               ///< APGD steps scaled by eta (the disc is isotropic)

  TRACKCOSIM_HD const std::uint8_t* solve_mask() const { return solve_here; }

  struct Frame {
    std::uint32_t a, b;
    Vec3 u, w;
    real radius;
  };
  TRACKCOSIM_HD Frame frame(std::size_t i) const {
    Frame f{body_a[i], body_b[i], {}, {}, radius[i]};
    tangent_basis(normal.get(i), f.u, f.w);
    return f;
  }
  /// The same frame from its contact's, already read (the same bodies and tangent basis).
  TRACKCOSIM_HD Frame frame(std::size_t i, const ContactBlockView::Frame& contact) const {
    return {contact.a, contact.b, contact.u, contact.w, radius[i]};
  }
  TRACKCOSIM_HD ConeImpulse velocity(std::size_t, const Frame& f, const BodyView& b, ConeImpulse) const {
    const Vec3 rel = b.angular_velocity.get(f.b) - b.angular_velocity.get(f.a);
    return {0, f.radius * dot(f.u, rel), f.radius * dot(f.w, rel)};
  }
  /// The disc |rho| <= mu gamma_n (gamma_n of this pass's contact impulse).
  TRACKCOSIM_HD ConeImpulse project(std::size_t i, ConeImpulse g) const {
    const real gn = normal_impulse.x[i];
    return project_on_disc(g, gn > 0 ? mu * gn : real(0));
  }
  TRACKCOSIM_HD real compliance_curvature(std::size_t, ConeImpulse) const { return 0; }
  TRACKCOSIM_HD real step_scale(std::size_t i) const { return eta[i]; }
  TRACKCOSIM_HD ConeImpulse gradient_step(std::size_t i, ConeImpulse y, ConeImpulse g, real t) const {
    return project(i, axpy(-scaled_step(preconditioned, eta[i], t), g, y));
  }
  TRACKCOSIM_HD real step_norm2(std::size_t i, ConeImpulse d) const { return scaled_norm2(preconditioned, eta[i], d); }
  /// World angular impulse on B of the pair rho.
  TRACKCOSIM_HD static Vec3 world_torque(const Frame& f, ConeImpulse g) { return f.radius * (g.u * f.u + g.w * f.w); }
  TRACKCOSIM_HD void scatter(std::size_t i, const Frame& f, ConeImpulse g) const {
    const Vec3 tau = world_torque(f, g);
    slots.add_angular(first_slot + 2 * i, -tau);
    slots.add_angular(first_slot + 2 * i + 1, tau);
  }
};

/// Device storage behind ContactBlockView, refilled every step by contact_preparation.cu.
struct DeviceContactBlock {
  thrust::device_vector<std::uint32_t> body_a, body_b;
  DeviceVec3 normal, arm_a, arm_b;
  thrust::device_vector<real> eta, bias, mu, jacobi_step;
  thrust::device_vector<real> compliance;          ///< empty unless the scene has compliant bodies
  thrust::device_vector<std::uint8_t> solve_here;  ///< empty unless the solve is distributed
  thrust::device_vector<real> scale_n, scale_t;    ///< empty unless APGD is preconditioned

  std::size_t size() const { return eta.size(); }
  void resize(std::size_t n) {
    body_a.resize(n);
    body_b.resize(n);
    normal.resize(n);
    arm_a.resize(n);
    arm_b.resize(n);
    eta.resize(n);
    bias.resize(n);
    mu.resize(n);
    jacobi_step.resize(n);
  }
  ContactBlockView view(SlotView slots, std::size_t first_slot) {
    return {size(),        raw(body_a), raw(body_b), normal.view(), arm_a.view(), arm_b.view(),
            raw(eta),      raw(bias),   raw(mu),     raw(jacobi_step), slots, first_slot,
            compliance.empty() ? nullptr : raw(compliance),
            solve_here.empty() ? nullptr : raw(solve_here),
            scale_n.empty() ? nullptr : raw(scale_n),
            scale_n.empty() ? nullptr : raw(scale_t)};
  }
};

struct DeviceRowBlock {
  thrust::device_vector<std::uint32_t> body_a, body_b;
  DeviceVec3 linear_a, angular_a, linear_b, angular_b;
  thrust::device_vector<real> eta, bias, jacobi_step;
  bool preconditioned = false;

  std::size_t size() const { return eta.size(); }
  RowBlockView view(SlotView slots, std::size_t first_slot) {
    return {size(),           raw(body_a),       raw(body_b), linear_a.view(), angular_a.view(),
            linear_b.view(),  angular_b.view(),  raw(eta),    raw(bias),       raw(jacobi_step),
            slots,            first_slot,        preconditioned};
  }
};

/// Device storage of RollingBlockView's own arrays (the rest are the contacts'); empty when
/// rolling_friction is 0.
struct DeviceRollingBlock {
  thrust::device_vector<real> radius, eta, jacobi_step;
  real mu = 0;
  bool preconditioned = false;

  std::size_t size() const { return eta.size(); }
  void resize(std::size_t n) {
    radius.resize(n);
    eta.resize(n);
    jacobi_step.resize(n);
  }
  RollingBlockView view(DeviceContactBlock& contacts, Vec3View normal_impulse, SlotView slots, std::size_t first_slot) {
    return {size(),
            raw(contacts.body_a),
            raw(contacts.body_b),
            contacts.normal.view(),
            raw(radius),
            raw(eta),
            raw(jacobi_step),
            mu,
            normal_impulse,
            slots,
            first_slot,
            contacts.solve_here.empty() ? nullptr : raw(contacts.solve_here),
            preconditioned};
  }
};

}  // namespace trackcosim::gpu::detail
