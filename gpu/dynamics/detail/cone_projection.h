#pragma once
// The metric projection onto the Coulomb friction cone (Tasora-Negrut sec. 3, eq. 12: "if the
// multipliers fall into the friction cone, they are not modified; if they are in the polar
// cone, they are set to zero; in the remaining cases they are projected orthogonally onto the
// surface of the friction cone"), and the contact tangent basis. Plain inline functions, used
// by every solver kernel and by the unit tests.

#include <cmath>

#include "math/host_device.h"
#include "math/vec3.h"

namespace trackcosim::gpu::detail {

/// Impulse triplet of one contact in its (n, u, w) frame.
struct ConeImpulse {
  real n, u, w;
};

TRACKCOSIM_HD inline ConeImpulse axpy(real a, ConeImpulse x, ConeImpulse y) {
  return {a * x.n + y.n, a * x.u + y.u, a * x.w + y.w};
}
TRACKCOSIM_HD inline real dot(ConeImpulse a, ConeImpulse b) { return a.n * b.n + a.u * b.u + a.w * b.w; }
TRACKCOSIM_HD inline ConeImpulse minus(ConeImpulse a, ConeImpulse b) { return {a.n - b.n, a.u - b.u, a.w - b.w}; }

/// Upsilon_i = {(n, u, w) : sqrt(u^2 + w^2) <= mu n}. For mu = 0 the cone is the ray n >= 0.
TRACKCOSIM_HD inline ConeImpulse project_on_cone(ConeImpulse g, real mu) {
  const real t = std::sqrt(g.u * g.u + g.w * g.w);
  if (t <= mu * g.n && g.n >= 0) return g;        // inside: keep
  if (mu * t <= -g.n) return {0, 0, 0};           // polar cone: zero
  // Closest point on the surface: n' = (n + mu t) / (1 + mu^2), |t'| = mu n'.
  const real n = (g.n + mu * t) / (1 + mu * mu);
  const real scale = t > 0 ? mu * n / t : 0;
  return {n, g.u * scale, g.w * scale};
}

/// The disc {(u, w) : sqrt(u^2 + w^2) <= bound} of rolling resistance (bound = mu_r gamma_n, 0
/// when the contact carries nothing): keep inside, scale back to the rim outside. n stays 0.
TRACKCOSIM_HD inline ConeImpulse project_on_disc(ConeImpulse g, real bound) {
  const real t = std::sqrt(g.u * g.u + g.w * g.w);
  if (t <= bound) return {0, g.u, g.w};
  const real scale = t > 0 ? bound / t : real(0);
  return {0, g.u * scale, g.w * scale};
}

/// A right-handed orthonormal basis (n, u, w) from a unit normal, continuous except across
/// n.z = -1 (Duff et al. 2017, "Building an orthonormal basis, revisited"). Recomputed from n in
/// every kernel instead of being stored: two fewer vectors to stream per contact-iteration.
TRACKCOSIM_HD inline void tangent_basis(Vec3 n, Vec3& u, Vec3& w) {
  const real sign = n.z >= 0 ? real(1) : real(-1);
  const real a = real(-1) / (sign + n.z);
  const real b = n.x * n.y * a;
  u = {1 + sign * n.x * n.x * a, sign * b, -sign * n.x};
  w = {b, sign + n.y * n.y * a, -n.y};
}

}  // namespace trackcosim::gpu::detail
