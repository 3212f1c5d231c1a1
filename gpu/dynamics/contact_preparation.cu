// Contact preprocessing (Tasora-Negrut algorithm 1, step 4): per contact, the arms from the body
// centres, eta_i = 3 / trace(D_i^T M^-1 D_i), the stabilisation term b_i = (Phi_i / h, 0, 0)
// (optionally clamped so that penetration is removed no faster than max_recovery_speed), the
// friction coefficient, and the warm-start impulse of the same contact key in the last step.
// A contact with a compliant body (contact_compliance.h) gets b_i = k Phi_i / (h k + c), its
// compliance eps_i = 1 / (h (h k + c)), and eta_i = 3 / (trace + 3 eps_i). With
// SolverSettings::contact_stiffness > 0 every other contact gets that spring and damper.

#include "gpu/dynamics/detail/contact_preparation.h"

#include "gpu/dynamics/detail/sorted_ids.h"
#include "gpu/memory/execution.h"

#include <thrust/binary_search.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

namespace trackcosim::gpu::detail {
namespace {

/// Three device arrays of a const contact list as one Vec3 view (the kernels only read it).
Vec3View view3(const thrust::device_vector<real>& x, const thrust::device_vector<real>& y,
               const thrust::device_vector<real>& z) {
  return {const_cast<real*>(raw(x)), const_cast<real*>(raw(y)), const_cast<real*>(raw(z))};
}

/// trace(D_i^T M^-1 D_i) restricted to one body: 3/m + sum_e (r x e) . I^-1 (r x e) (an axial
/// body's M^-1 is projected: 1/m + sum_e (r x e)_z^2 / I_zz, detail/device_bodies.h).
TRACKCOSIM_HD inline real side_trace(const BodyView& b, std::uint32_t j, Vec3 r, Vec3 n, Vec3 u, Vec3 w) {
  if (!b.dynamic(j)) return 0;
  const Vec3 cn = cross(r, n), cu = cross(r, u), cw = cross(r, w);
  return b.inv_mass_trace(j) + dot(cn, b.apply_inv_inertia(j, cn)) + dot(cu, b.apply_inv_inertia(j, cu)) +
         dot(cw, b.apply_inv_inertia(j, cw));
}

/// l . m^-1 l of a row's linear part (an axial body: its z part only, detail/device_bodies.h).
TRACKCOSIM_HD inline real linear_inverse_mass(const BodyView& b, std::uint32_t j, Vec3 l) {
  return b.axial(j) ? b.inv_mass[j] * l.z * l.z : b.inv_mass[j] * dot(l, l);
}

/// D_e^T M^-1 D_e restricted to one body for the row along e through the arm r: e . m^-1 e +
/// (r x e) . I^-1 (r x e) (one diagonal entry of N; side_trace sums three).
TRACKCOSIM_HD inline real side_diagonal(const BodyView& b, std::uint32_t j, Vec3 r, Vec3 e) {
  if (!b.dynamic(j)) return 0;
  const Vec3 c = cross(r, e);
  return linear_inverse_mass(b, j, e) + dot(c, b.apply_inv_inertia(j, c));
}

/// Which of last step's contacts each contact continues (the same key), for its warm start.
struct WarmMatch {
  const ContactKey *keys, *old_keys;  ///< old_keys is null without a warm start
  std::size_t old_count;
  const std::uint32_t* match;
  TRACKCOSIM_HD bool found(std::size_t i) const {
    return old_keys != nullptr && match[i] < old_count && old_keys[match[i]] == keys[i];
  }
};

WarmMatch warm_match(const ContactUpload& up, const WarmStartStore& warm, bool enabled) {
  return {raw(up.keys), enabled ? raw(warm.keys) : nullptr, warm.keys.size(), raw(up.match)};
}

/// The rolling rows' share of a dynamic body's angular inverse mass: R*^2 (u.I^-1 u + w.I^-1 w).
TRACKCOSIM_HD inline real rolling_trace(const BodyView& b, std::uint32_t j, real r, Vec3 u, Vec3 w) {
  if (!b.dynamic(j)) return 0;
  return r * r * (dot(u, b.apply_inv_inertia(j, u)) + dot(w, b.apply_inv_inertia(j, w)));
}

/// Spring and damper of a contact: a compliant body's own, or both in series.
struct ContactSpring {
  real stiffness = 0, damping = 0;
};
struct ComplianceTable {
  const GlobalId* gid;
  const real *stiffness, *damping;
  std::size_t count;
  TRACKCOSIM_HD ContactSpring spring(GlobalId a, GlobalId b) const {
    const std::size_t ia = find_gid(gid, count, a), ib = find_gid(gid, count, b);
    if (ia == count && ib == count) return {};
    if (ib == count) return {stiffness[ia], damping[ia]};
    if (ia == count) return {stiffness[ib], damping[ib]};
    return {in_series(stiffness[ia], stiffness[ib]), in_series(damping[ia], damping[ib])};
  }
};

}  // namespace

void prepare_contacts(const DeviceContacts& c, DeviceBodies& bodies, real h, const SolverSettings& settings,
                      const DeviceCompliance& compliant, const WarmStartStore& warm, ContactUpload& up,
                      SolverWorkspace& ws) {
  const std::size_t n = c.size();
  ws.contacts.resize(n);
  const bool grains_compliant = settings.contact_stiffness > 0;
  const bool any_compliance = grains_compliant || !compliant.empty();
  ws.contacts.compliance.resize(any_compliance ? n : 0);
  const bool preconditioned = apgd_preconditioned(settings);
  ws.contacts.scale_n.resize(preconditioned ? n : 0);
  ws.contacts.scale_t.resize(preconditioned ? n : 0);
  ws.contact_impulse.resize(n);
  up.keys.resize(n);
  up.match.resize(n);

  // gid -> body index: bodies are stored in increasing gid order.
  thrust::lower_bound(par(), bodies.gid.begin(), bodies.gid.end(), c.gid_a.begin(), c.gid_a.end(), ws.contacts.body_a.begin());
  thrust::lower_bound(par(), bodies.gid.begin(), bodies.gid.end(), c.gid_b.begin(), c.gid_b.end(), ws.contacts.body_b.begin());
  {
    const GlobalId *ga = raw(c.gid_a), *gb = raw(c.gid_b);
    const ShapeIndex *sa = raw(c.shape_a), *sb = raw(c.shape_b);
    ContactKey* keys = raw(up.keys);
    thrust::for_each(par(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(n),
                     [=] TRACKCOSIM_HD(std::size_t i) { keys[i] = ContactKey{ga[i], gb[i], sa[i], sb[i]}; });
  }
  const bool warm_start = settings.warm_start && !warm.keys.empty();
  if (warm_start)
    thrust::lower_bound(par(), warm.keys.begin(), warm.keys.end(), up.keys.begin(), up.keys.end(), up.match.begin());

  const BodyView b = bodies.view();
  const ContactBlockView blk = ws.contacts.view(ws.slots.view(), 0);
  const Vec3View normal = view3(c.nx, c.ny, c.nz), pa = view3(c.ax, c.ay, c.az), pb = view3(c.bx, c.by, c.bz);
  const real* distance = raw(c.distance);
  const real* friction = raw(bodies.friction);
  real* eta = raw(ws.contacts.eta);
  real* bias = raw(ws.contacts.bias);
  real* mu = raw(ws.contacts.mu);
  const Vec3View gamma = ws.contact_impulse.gamma.view();
  const WarmMatch previous = warm_match(up, warm, warm_start);
  const std::uint32_t* match = raw(up.match);
  const Vec3View old_impulse = warm.impulse.view();
  const real max_recovery = settings.max_recovery_speed;
  const ComplianceTable table{raw(compliant.gid), raw(compliant.stiffness), raw(compliant.damping),
                              compliant.gid.size()};
  real* compliance = any_compliance ? raw(ws.contacts.compliance) : nullptr;
  real* scale_n = preconditioned ? raw(ws.contacts.scale_n) : nullptr;
  real* scale_t = preconditioned ? raw(ws.contacts.scale_t) : nullptr;
  const ContactSpring grain_spring{grains_compliant ? settings.contact_stiffness : real(0), settings.contact_damping};
  const GlobalId *gid_a = raw(c.gid_a), *gid_b = raw(c.gid_b);
  thrust::for_each(par(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(n),
                   [=] TRACKCOSIM_HD(std::size_t i) {
                     const std::uint32_t A = blk.body_a[i], B = blk.body_b[i];
                     const Vec3 nrm = normal.get(i);
                     const Vec3 ra = pa.get(i) - b.position.get(A);
                     const Vec3 rb = pb.get(i) - b.position.get(B);
                     blk.normal.set(i, nrm);
                     blk.arm_a.set(i, ra);
                     blk.arm_b.set(i, rb);
                     Vec3 u, w;
                     tangent_basis(nrm, u, w);
                     const real trace = side_trace(b, A, ra, nrm, u, w) + side_trace(b, B, rb, nrm, u, w);
                     real stabilisation = distance[i] / h, eps = 0;
                     if (compliance != nullptr) {
                       ContactSpring s = table.spring(gid_a[i], gid_b[i]);
                       if (s.stiffness <= 0) s = grain_spring;  // no compliant body: the grains' law
                       if (s.stiffness > 0) {
                         stabilisation = s.stiffness * distance[i] / (h * s.stiffness + s.damping);
                         eps = 1 / (h * (h * s.stiffness + s.damping));
                       }
                       compliance[i] = eps;
                     }
                     eta[i] = 3 / (trace + 3 * eps);
                     if (scale_n != nullptr) {  // the inverse diagonal of N + E, tangents averaged
                       const real nn = side_diagonal(b, A, ra, nrm) + side_diagonal(b, B, rb, nrm) + eps;
                       const real tt = side_diagonal(b, A, ra, u) + side_diagonal(b, B, rb, u) +
                                       side_diagonal(b, A, ra, w) + side_diagonal(b, B, rb, w);
                       scale_n[i] = nn > 0 ? 1 / nn : real(1);
                       scale_t[i] = tt > 0 ? 2 / tt : real(1);
                     }
                     if (max_recovery > 0 && stabilisation < -max_recovery) stabilisation = -max_recovery;
                     bias[i] = stabilisation;
                     mu[i] = friction[A] < friction[B] ? friction[A] : friction[B];
                     ConeImpulse start{0, 0, 0};
                     if (previous.found(i)) {
                       const Vec3 p = old_impulse.get(match[i]);
                       start = project_on_cone({dot(p, nrm), dot(p, u), dot(p, w)}, mu[i]);
                     }
                     gamma.set(i, {start.n, start.u, start.w});
                   });
}

void prepare_rolling(DeviceBodies& bodies, const SolverSettings& settings, const WarmStartStore& warm,
                     const ContactUpload& up, SolverWorkspace& ws) {
  const std::size_t n = settings.rolling_friction > 0 ? ws.contacts.size() : 0;
  ws.rolling.resize(n);
  ws.rolling.mu = settings.rolling_friction;
  ws.rolling.preconditioned = apgd_preconditioned(settings);
  ws.rolling_impulse.resize(n);
  if (n == 0) return;
  const bool warm_start = settings.warm_start && !warm.keys.empty() && warm.rolling.x.size() == warm.keys.size();
  const BodyView b = bodies.view();
  const ContactBlockView blk = ws.contact_view();
  real* radius = raw(ws.rolling.radius);
  real* eta = raw(ws.rolling.eta);
  const Vec3View gamma = ws.contact_impulse.gamma.view(), rho = ws.rolling_impulse.gamma.view();
  const WarmMatch previous = warm_match(up, warm, warm_start);
  const std::uint32_t* match = raw(up.match);
  const Vec3View old_rolling = warm.rolling.view();
  const real mu = settings.rolling_friction;
  thrust::for_each(par(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(n),
                   [=] TRACKCOSIM_HD(std::size_t i) {
                     const ContactBlockView::Frame f = blk.frame(i);
                     // R*: the arms of the dynamic bodies in parallel (a sphere on a wall: its radius).
                     real inverse = 0;
                     if (b.dynamic(f.a)) inverse += 1 / std::sqrt(dot(f.arm_a, f.arm_a));
                     if (b.dynamic(f.b)) inverse += 1 / std::sqrt(dot(f.arm_b, f.arm_b));
                     const real r = inverse > 0 ? 1 / inverse : real(0);
                     const real trace = rolling_trace(b, f.a, r, f.u, f.w) + rolling_trace(b, f.b, r, f.u, f.w);
                     radius[i] = r;
                     eta[i] = trace > 0 ? 2 / trace : real(0);
                     ConeImpulse start{0, 0, 0};
                     if (previous.found(i)) {
                       const Vec3 p = old_rolling.get(match[i]);
                       const real gn = gamma.get(i).x;
                       start = project_on_disc({0, dot(p, f.u), dot(p, f.w)}, gn > 0 ? mu * gn : real(0));
                     }
                     rho.set(i, {start.n, start.u, start.w});
                   });
}

void prepare_rows(DeviceBodies& bodies, const SolverSettings& settings, SolverWorkspace& ws) {
  const std::size_t n = ws.rows.size();
  ws.rows.preconditioned = apgd_preconditioned(settings);
  ws.row_impulse.resize(n);
  ws.row_impulse.gamma.fill(0);
  const BodyView b = bodies.view();
  const RowBlockView rows = ws.rows.view(ws.slots.view(), 0);
  real* eta = raw(ws.rows.eta);
  thrust::for_each(par(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(n),
                   [=] TRACKCOSIM_HD(std::size_t i) {
                     real k = 0;
                     const std::uint32_t A = rows.body_a[i], B = rows.body_b[i];
                     if (b.dynamic(A))
                       k += linear_inverse_mass(b, A, rows.linear_a.get(i)) +
                            dot(rows.angular_a.get(i), b.apply_inv_inertia(A, rows.angular_a.get(i)));
                     if (b.dynamic(B))
                       k += linear_inverse_mass(b, B, rows.linear_b.get(i)) +
                            dot(rows.angular_b.get(i), b.apply_inv_inertia(B, rows.angular_b.get(i)));
                     eta[i] = k > 0 ? 1 / k : 0;
                   });
}

void store_warm_start(const ContactUpload& up, SolverWorkspace& ws, WarmStartStore& warm) {
  const std::size_t n = ws.contacts.size();
  warm.keys.assign(up.keys.begin(), up.keys.end());
  warm.impulse.resize(n);
  const ContactBlockView blk = ws.contact_view();
  const Vec3View gamma = ws.contact_impulse.gamma.view();
  const Vec3View out = warm.impulse.view();
  thrust::for_each(par(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(n),
                   [=] TRACKCOSIM_HD(std::size_t i) {
                     const Vec3 g = gamma.get(i);
                     out.set(i, ContactBlockView::world_impulse(blk.frame(i), {g.x, g.y, g.z}));
                   });
  if (ws.rolling.size() != n) {
    warm.rolling.resize(0);
    return;
  }
  warm.rolling.resize(n);
  const Vec3View rho = ws.rolling_impulse.gamma.view(), rolling_out = warm.rolling.view();
  thrust::for_each(par(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(n),
                   [=] TRACKCOSIM_HD(std::size_t i) {
                     const ContactBlockView::Frame f = blk.frame(i);
                     const Vec3 r = rho.get(i);
                     rolling_out.set(i, r.y * f.u + r.z * f.w);
                   });
}

}  // namespace trackcosim::gpu::detail
