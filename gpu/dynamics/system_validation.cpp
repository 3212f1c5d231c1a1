// User-facing checks of the scene handed to RigidBodySystem (see detail/system_validation.h).

#include "gpu/dynamics/detail/system_validation.h"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace trackcosim::gpu::detail {
namespace {

[[noreturn]] void fail_body(GlobalId gid, const std::string& what) {
  throw std::invalid_argument("body gid " + std::to_string(gid) + ": " + what);
}

std::string number(real v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

void require_finite(GlobalId gid, const char* field, std::initializer_list<real> values) {
  for (real v : values)
    if (!std::isfinite(v)) fail_body(gid, std::string(field) + " must be finite, got " + number(v));
}

}  // namespace

void validate_bodies(const BodySet& s) {
  const std::size_t n = s.size();
  for (std::size_t i = 0; i < n; ++i) {
    const GlobalId gid = s.gid[i];
    if (i > 0 && gid <= s.gid[i - 1])
      fail_body(gid, "gids must increase strictly; previous gid is " + std::to_string(s.gid[i - 1]));
    require_finite(gid, "position", {s.px[i], s.py[i], s.pz[i]});
    require_finite(gid, "orientation", {s.qw[i], s.qx[i], s.qy[i], s.qz[i]});
    require_finite(gid, "velocity", {s.vx[i], s.vy[i], s.vz[i], s.wx[i], s.wy[i], s.wz[i]});
    require_finite(gid, "applied force", {s.fx[i], s.fy[i], s.fz[i], s.tx[i], s.ty[i], s.tz[i]});
    const real qn = std::sqrt(s.qw[i] * s.qw[i] + s.qx[i] * s.qx[i] + s.qy[i] * s.qy[i] + s.qz[i] * s.qz[i]);
    if (std::abs(qn - 1) > 1e-6) fail_body(gid, "orientation must be a unit quaternion, |q| = " + number(qn));
    if (!(s.friction[i] >= 0) || !std::isfinite(s.friction[i]))
      fail_body(gid, "friction must be >= 0, got " + number(s.friction[i]));
    if (static_cast<std::uint8_t>(s.motion[i]) > static_cast<std::uint8_t>(Motion::Axial))
      fail_body(gid, "motion code " + std::to_string(unsigned(s.motion[i])) + " is none of 0 dynamic, 1 fixed, 2 kinematic, 3 axial");
    if (!is_dynamic(s.motion[i])) continue;
    if (!(s.mass[i] > 0) || !std::isfinite(s.mass[i])) fail_body(gid, "mass must be > 0, got " + number(s.mass[i]));
    for (real moment : {s.ix[i], s.iy[i], s.iz[i]})
      if (!(moment > 0) || !std::isfinite(moment)) fail_body(gid, "inertia moments must be > 0, got " + number(moment));
  }
  for (std::size_t k = 0; k < s.sphere_radius.size(); ++k) {
    const GlobalId gid = s.gid.at(s.sphere_body[k]);
    require_finite(gid, "sphere offset", {s.sphere_ox[k], s.sphere_oy[k], s.sphere_oz[k]});
    if (!(s.sphere_radius[k] > 0) || !std::isfinite(s.sphere_radius[k]))
      fail_body(gid, "sphere radius must be > 0, got " + number(s.sphere_radius[k]));
  }
}

void validate_step_settings(const StepSettings& st) {
  auto fail = [](const std::string& what) { throw std::invalid_argument(what); };
  if (!(st.step_size > 0) || !std::isfinite(st.step_size)) fail("step size must be > 0, got " + number(st.step_size));
  if (!std::isfinite(st.gravity.x) || !std::isfinite(st.gravity.y) || !std::isfinite(st.gravity.z))
    fail("gravity must be finite");
  const SolverSettings& s = st.solver;
  if (!(s.tolerance >= 0)) fail("solver tolerance must be >= 0, got " + number(s.tolerance));
  if (s.residual_interval < 1) fail("solver residual interval must be >= 1, got 0");
  if (!(s.jacobi_omega > 0 && s.jacobi_omega <= 1)) fail("jacobi omega must be in (0, 1], got " + number(s.jacobi_omega));
  if (!(s.jacobi_lambda > 0 && s.jacobi_lambda <= 1))
    fail("jacobi lambda must be in (0, 1], got " + number(s.jacobi_lambda));
  if (!(s.max_recovery_speed >= 0)) fail("max recovery speed must be >= 0, got " + number(s.max_recovery_speed));
  if (!(s.contact_stiffness >= 0 && std::isfinite(s.contact_stiffness)))
    fail("contact stiffness must be finite and >= 0, got " + number(s.contact_stiffness));
  if (!(s.rolling_friction >= 0 && std::isfinite(s.rolling_friction)))
    fail("rolling friction must be finite and >= 0, got " + number(s.rolling_friction));
  if (!(s.contact_damping >= 0 && std::isfinite(s.contact_damping)))
    fail("contact damping must be finite and >= 0, got " + number(s.contact_damping));
}

}  // namespace trackcosim::gpu::detail
