#pragma once
// Small scenes and helpers shared by the dynamics tests (tests/gpu/dynamics_*_test.cpp).
//
// Every scene is built from the public BodySet API only, so the tests read as a user's program
// would. Gids are assigned in building order: fixed geometry (floor, walls) first, so that the
// floor is side A of every contact it has and its impulse on a sphere is `impulse_on_b`.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "gpu/dynamics/body_set.h"
#include "gpu/dynamics/rigid_body_system.h"

namespace trackcosim::gpu {
/// Test names and failure messages say "Jacobi" / "Apgd" instead of a byte dump.
inline void PrintTo(SolverMethod method, std::ostream* os) {
  *os << (method == SolverMethod::Jacobi ? "Jacobi" : "Apgd");
}
}  // namespace trackcosim::gpu

namespace trackcosim::gpu::test {

inline constexpr real kG = 9.81;
inline constexpr real kPi = std::numbers::pi_v<real>;

/// Both solver methods, for INSTANTIATE_TEST_SUITE_P; test names end in /Jacobi or /Apgd.
inline const auto kBothMethods = ::testing::Values(SolverMethod::Jacobi, SolverMethod::Apgd);
inline std::string method_name(const ::testing::TestParamInfo<SolverMethod>& info) {
  return info.param == SolverMethod::Jacobi ? "Jacobi" : "Apgd";
}

/// h = 1e-3 s, 100 iterations, tolerance 0 (the benchmark's solver), the given method, and an
/// envelope so that a resting contact stays in the list: a contact found only at distance <= 0
/// would drop out whenever the solver leaves the gap a rounding error above zero, and the body
/// would free-fall for one step, chattering at g h^2 instead of resting.
inline StepSettings settings_for(SolverMethod method, real envelope) {
  StepSettings s;
  s.step_size = 1e-3;
  s.collision.envelope = envelope;
  s.solver.method = method;
  s.solver.max_iterations = 100;
  s.solver.tolerance = 0;
  return s;
}

/// For scenes where a load travels through many contacts in series (a column, a deep bed):
/// Jacobi moves information one contact per sweep, so 100 sweeps cannot carry the weight of an
/// 8-layer bed to the floor. Jacobi stops at a residual of 1e-6 m/s or 2000 sweeps instead; APGD
/// keeps the benchmark's 100 iterations.
inline StepSettings deep_stack_settings_for(SolverMethod method, real envelope) {
  StepSettings s = settings_for(method, envelope);
  if (method == SolverMethod::Jacobi) {
    s.solver.max_iterations = 2000;
    s.solver.tolerance = 1e-6;
  }
  return s;
}

inline real sphere_mass(real radius, real density) { return density * 4 / 3 * kPi * radius * radius * radius; }

inline std::uint32_t add_sphere_body(BodySet& set, GlobalId gid, Vec3 position, real radius, real mass,
                                     real friction, Vec3 velocity = {0, 0, 0}) {
  BodyDesc d;
  d.gid = gid;
  d.position = position;
  d.velocity = velocity;
  d.mass = mass;
  d.inertia = solid_sphere_inertia(mass, radius);
  d.friction = friction;
  const std::uint32_t i = set.add_body(d);
  set.add_sphere(i, {0, 0, 0}, radius);
  return i;
}

/// A fixed body (no shapes yet) at `position`.
inline std::uint32_t add_fixed_body(BodySet& set, GlobalId gid, real friction, Vec3 position = {0, 0, 0}) {
  BodyDesc d;
  d.gid = gid;
  d.position = position;
  d.motion = Motion::Fixed;
  d.friction = friction;
  return set.add_body(d);
}

/// The floor z = 0, solid below.
inline std::uint32_t add_floor(BodySet& set, GlobalId gid, real friction) {
  const std::uint32_t i = add_fixed_body(set, gid, friction);
  set.add_plane(i, {0, 0, 0}, {0, 0, 1});
  return i;
}

/// Four vertical walls on one fixed body: |x| <= half_x, |y| <= half_y is free space.
inline std::uint32_t add_side_walls(BodySet& set, GlobalId gid, real friction, real half_x, real half_y) {
  const std::uint32_t i = add_fixed_body(set, gid, friction);
  set.add_plane(i, {-half_x, 0, 0}, {1, 0, 0});
  set.add_plane(i, {half_x, 0, 0}, {-1, 0, 0});
  set.add_plane(i, {0, -half_y, 0}, {0, 1, 0});
  set.add_plane(i, {0, half_y, 0}, {0, -1, 0});
  return i;
}

/// A compound block of nx x ny x nz spheres of radius r, centres 2r apart (touching), centred on
/// `center`; mass and inertia of the solid box of half extents (nx r, ny r, nz r).
inline std::uint32_t add_sphere_block(BodySet& set, GlobalId gid, Vec3 center, int nx, int ny, int nz, real r,
                                      real mass, real friction) {
  BodyDesc d;
  d.gid = gid;
  d.position = center;
  d.mass = mass;
  d.inertia = solid_box_inertia(mass, {nx * r, ny * r, nz * r});
  d.friction = friction;
  const std::uint32_t b = set.add_body(d);
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        set.add_sphere(b, {(2 * i - (nx - 1)) * r, (2 * j - (ny - 1)) * r, (2 * k - (nz - 1)) * r}, r);
  return b;
}

/// A granular bed in a box: the floor (gid 1, mu = 0.5), four side walls on one body (gid 2,
/// friction `wall_friction`), and side x side x layers spheres of radius r (density 2500 kg/m^3,
/// mu = 0.5, gids 100, 101, ...), at rest. Layers are square grids of spacing 2.2 r, every other
/// one shifted by half a spacing in x and y, so each sphere sits above a pocket of four (a
/// body-centred stacking): the bed falls and settles into its pockets instead of collapsing, as
/// a jittered simple-cubic stack does, where columns keep buckling for hundreds of steps. Layer
/// pitch 1.15 x the resting pitch sqrt(4 r^2 - s^2 / 2), centres jittered +-0.05 r sideways,
/// which keeps every initial gap positive; the bottom layer starts 0.5 r above the floor. The
/// walls stand 0.5 r beyond the outermost possible sphere surface.
struct BedSpec {
  int side = 6, layers = 8;
  real radius = 0.01;
  real wall_friction = 0;
};
inline constexpr GlobalId kBedFloorGid = 1, kBedWallsGid = 2, kBedFirstSphereGid = 100;
inline constexpr real kBedDensity = 2500;

inline BodySet boxed_bed(const BedSpec& spec) {
  const real r = spec.radius, s = 2.2 * r, jitter = 0.05 * r;
  const real pitch = 1.15 * std::sqrt(4 * r * r - s * s / 2);
  const real half = (spec.side - 1) * s / 2 + s / 4 + jitter + r + 0.5 * r;
  BodySet scene;
  add_floor(scene, kBedFloorGid, 0.5);
  add_side_walls(scene, kBedWallsGid, spec.wall_friction, half, half);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<real> u(-jitter, jitter);
  const real m = sphere_mass(r, kBedDensity);
  GlobalId gid = kBedFirstSphereGid;
  for (int k = 0; k < spec.layers; ++k) {
    const real shift = (k % 2) * s / 2 - s / 4;
    for (int j = 0; j < spec.side; ++j)
      for (int i = 0; i < spec.side; ++i) {
        const real x = (i - (spec.side - 1) / real(2)) * s + shift + u(rng);
        const real y = (j - (spec.side - 1) / real(2)) * s + shift + u(rng);
        add_sphere_body(scene, gid++, {x, y, 1.5 * r + k * pitch}, r, m, 0.5);
      }
  }
  return scene;
}

/// Total mass of the dynamic bodies of a scene.
inline real dynamic_mass(const BodySet& scene) {
  real m = 0;
  for (std::size_t i = 0; i < scene.size(); ++i)
    if (scene.motion[i] == Motion::Dynamic) m += scene.mass[i];
  return m;
}

/// A copy of `scene` with every body's state replaced by `states` (same order): restarts a
/// settled scene in fresh systems, e.g. to compare two solver settings from the same state.
inline BodySet with_states(BodySet scene, const std::vector<BodyState>& states) {
  for (std::size_t i = 0; i < states.size(); ++i) {
    const BodyState& s = states[i];
    scene.px[i] = s.position.x, scene.py[i] = s.position.y, scene.pz[i] = s.position.z;
    scene.qw[i] = s.orientation.w, scene.qx[i] = s.orientation.x;
    scene.qy[i] = s.orientation.y, scene.qz[i] = s.orientation.z;
    scene.vx[i] = s.velocity.x, scene.vy[i] = s.velocity.y, scene.vz[i] = s.velocity.z;
    scene.wx[i] = s.angular_velocity.x, scene.wy[i] = s.angular_velocity.y, scene.wz[i] = s.angular_velocity.z;
  }
  return scene;
}

inline void step_n(RigidBodySystem& system, int n) {
  for (int i = 0; i < n; ++i) system.step();
}

/// A bed of 5 x 5 x 6 = 150 spheres in a box, settled for 300 APGD steps.
inline BodySet settled_small_bed() {
  BedSpec spec;
  spec.side = 5;
  spec.layers = 6;
  const BodySet bed = boxed_bed(spec);
  RigidBodySystem settle(bed, settings_for(SolverMethod::Apgd, 0.002));
  step_n(settle, 300);
  return with_states(bed, settle.body_states());
}

inline real max_speed(const std::vector<BodyState>& states) {
  real m = 0;
  for (const BodyState& s : states) m = std::max(m, length(s.velocity));
  return m;
}

/// Largest change of any body's position between two snapshots.
inline real max_displacement(const std::vector<BodyState>& a, const std::vector<BodyState>& b) {
  real m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, length(b[i].position - a[i].position));
  return m;
}

/// Sum of the impulses that body `gid` gave the other bodies in the last step (each contact
/// where it is side A contributes impulse_on_b, side B the opposite).
inline Vec3 impulse_given_by(const ContactImpulses& c, GlobalId gid) {
  Vec3 sum{0, 0, 0};
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (c.contacts.gid_a[i] == gid) sum = sum + c.impulse_on_b[i];
    if (c.contacts.gid_b[i] == gid) sum = sum - c.impulse_on_b[i];
  }
  return sum;
}

}  // namespace trackcosim::gpu::test
