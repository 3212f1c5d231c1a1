#include "bench/loaded_bed/loaded_bed_case.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

#include "gpu/dynamics/rigid_body_system.h"

namespace trackcosim::bench {
namespace {

using gpu::BodyDesc;
using gpu::BodySet;

constexpr real kPi = 3.14159265358979323846;

/// A uniformly random orientation (Shoemake's method).
Quat random_orientation(std::mt19937_64& rng) {
  std::uniform_real_distribution<real> u(0, 1);
  const real a = u(rng), b = 2 * kPi * u(rng), c = 2 * kPi * u(rng);
  return {std::sqrt(a) * std::cos(c), std::sqrt(1 - a) * std::sin(b), std::sqrt(1 - a) * std::cos(b),
          std::sqrt(a) * std::sin(c)};
}

/// Adds one grain of bounding radius r at g.position: a sphere, or a clump (LoadedBedSpec).
/// A clump's mass and inertia treat its spheres as separate (their overlap, about a tenth of the
/// volume, is counted twice: a slightly denser grain, which changes no conclusion here).
void add_grain(BodySet& set, BodyDesc g, real r, unsigned spheres, real density, std::mt19937_64& rng) {
  if (spheres <= 1) {
    g.mass = density * 4 / 3 * kPi * r * r * r;
    g.inertia = gpu::solid_sphere_inertia(g.mass, r);
    set.add_sphere(set.add_body(g), {0, 0, 0}, r);
    return;
  }
  const real rs = r / real(1.6), d = real(0.6) * rs;
  const real ms = density * 4 / 3 * kPi * rs * rs * rs, own = real(0.4) * ms * rs * rs;
  std::vector<Vec3> offsets;
  if (spheres == 4) {  // a tetrahedron: the vertices of a cube's alternate corners
    const real e = d / std::sqrt(real(3));
    offsets = {{e, e, e}, {e, -e, -e}, {-e, e, -e}, {-e, -e, e}};
  } else {
    for (unsigned k = 0; k < spheres; ++k) {
      const real angle = 2 * kPi * real(k) / real(spheres);
      offsets.push_back({d * std::cos(angle), d * std::sin(angle), 0});
    }
  }
  g.mass = ms * real(spheres);
  // Principal frame: a dimer along x, a trimer in the xy plane, a tetrahedron isotropic.
  Vec3 inertia{0, 0, 0};
  for (const Vec3& o : offsets)
    inertia = inertia + Vec3{own + ms * (o.y * o.y + o.z * o.z), own + ms * (o.x * o.x + o.z * o.z),
                             own + ms * (o.x * o.x + o.y * o.y)};
  g.inertia = inertia;
  g.orientation = random_orientation(rng);
  const std::uint32_t body = set.add_body(g);
  for (const Vec3& o : offsets) set.add_sphere(body, o, rs);
}

/// The bodies' current states written back into the set they came from (same order).
BodySet with_states(BodySet set, const std::vector<gpu::BodyState>& states, bool zero_velocity) {
  for (std::size_t i = 0; i < states.size(); ++i) {
    const gpu::BodyState& s = states[i];
    set.px[i] = s.position.x, set.py[i] = s.position.y, set.pz[i] = s.position.z;
    set.qw[i] = s.orientation.w, set.qx[i] = s.orientation.x, set.qy[i] = s.orientation.y;
    set.qz[i] = s.orientation.z;
    const real k = zero_velocity ? 0 : 1;
    set.vx[i] = k * s.velocity.x, set.vy[i] = k * s.velocity.y, set.vz[i] = k * s.velocity.z;
    set.wx[i] = k * s.angular_velocity.x, set.wy[i] = k * s.angular_velocity.y, set.wz[i] = k * s.angular_velocity.z;
  }
  return set;
}

double rms_grain_speed(const BodySet& set, const std::vector<gpu::BodyState>& states) {
  double sum = 0;
  std::size_t n = 0;
  for (std::size_t i = 0; i < states.size(); ++i) {
    if (set.motion[i] != gpu::Motion::Dynamic) continue;
    const Vec3 v = states[i].velocity;
    sum += double(dot(v, v));
    ++n;
  }
  return n == 0 ? 0.0 : std::sqrt(sum / double(n));
}

/// Upward force the floor gives the grains in the last step: its contacts' impulses / h.
double floor_force(const gpu::RigidBodySystem& system) {
  const gpu::ContactImpulses c = system.contact_impulses();
  double impulse = 0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (c.contacts.gid_a[i] == kFloorGid) impulse += double(c.impulse_on_b[i].z);
    else if (c.contacts.gid_b[i] == kFloorGid) impulse -= double(c.impulse_on_b[i].z);
  }
  return impulse / double(system.settings().step_size);
}

}  // namespace

BodySet loose_bed(const LoadedBedSpec& spec) {
  const real r_max = spec.radius * (1 + spec.radius_spread);
  const real pitch = 2.05 * r_max;
  const auto nx = static_cast<std::size_t>(std::floor((spec.box_x - 2 * r_max) / pitch)) + 1;
  const auto ny = static_cast<std::size_t>(std::floor((spec.box_y - 2 * r_max) / pitch)) + 1;
  BodySet set;
  BodyDesc wall;
  wall.motion = gpu::Motion::Fixed;
  wall.gid = kFloorGid;
  wall.friction = spec.friction;
  set.add_plane(set.add_body(wall), {0, 0, 0}, {0, 0, 1});
  wall.gid = 1;
  wall.friction = 0;  // frictionless walls: the floor carries all the weight at rest
  const std::uint32_t walls = set.add_body(wall);
  set.add_plane(walls, {0, 0, 0}, {1, 0, 0});
  set.add_plane(walls, {spec.box_x, 0, 0}, {-1, 0, 0});
  set.add_plane(walls, {0, 0, 0}, {0, 1, 0});
  set.add_plane(walls, {0, spec.box_y, 0}, {0, -1, 0});

  std::mt19937_64 rng(spec.seed);
  std::uniform_real_distribution<real> unit(-1, 1);
  const real jitter = (pitch - 2 * r_max) / 2;
  BodyDesc g;
  g.friction = spec.friction;
  for (std::size_t i = 0; i < spec.grains; ++i) {
    const std::size_t layer = i / (nx * ny), in_layer = i % (nx * ny);
    const real r = spec.radius * (1 + spec.radius_spread * unit(rng));
    g.gid = 2 + i;
    // Odd layers shift by half a pitch so that grains drop into the holes below them.
    const real shift = (layer % 2) * pitch / 2;
    const real x = r_max + real(in_layer % nx) * pitch + shift + jitter * unit(rng);
    const real y = r_max + real(in_layer / nx) * pitch + shift + jitter * unit(rng);
    g.position = {std::min(x, spec.box_x - r_max), std::min(y, spec.box_y - r_max), r_max + real(layer) * pitch};
    add_grain(set, g, r, spec.spheres_per_grain, spec.density, rng);
    set.ix.back() *= spec.inertia_scale, set.iy.back() *= spec.inertia_scale, set.iz.back() *= spec.inertia_scale;
  }
  return set;
}

BodySet settle(const BodySet& bed, const gpu::StepSettings& settings, double rms_limit, double max_time,
               SettleReport* report) {
  gpu::RigidBodySystem system(bed, settings);
  const auto t0 = std::chrono::steady_clock::now();
  double rms = 0;
  std::size_t steps = 0;
  while (system.time() < max_time) {
    system.step();
    ++steps;
    if (system.time() < 0.1 || steps % 10 != 0) continue;
    rms = rms_grain_speed(bed, system.body_states());
    if (rms < rms_limit) break;
  }
  if (report != nullptr) {
    report->simulated_seconds = double(system.time());
    report->wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    report->rms_speed = rms;
    report->steps = steps;
  }
  return with_states(bed, system.body_states(), true);
}

real surface_under_plate(const BodySet& bed, const LoadedBedSpec& spec) {
  const real cx = spec.box_x / 2, cy = spec.box_y / 2;
  real top = 0;
  for (std::size_t s = 0; s < bed.sphere_body.size(); ++s) {
    const std::uint32_t b = bed.sphere_body[s];
    if (std::abs(bed.px[b] - cx) > spec.plate_length / 2 || std::abs(bed.py[b] - cy) > spec.plate_width / 2) continue;
    // The sphere's own height: its offset turned into the world by the body's orientation.
    const Quat q{bed.qw[b], bed.qx[b], bed.qy[b], bed.qz[b]};
    const Vec3 centre = Vec3{bed.px[b], bed.py[b], bed.pz[b]} + rotate(q, {bed.sphere_ox[s], bed.sphere_oy[s], bed.sphere_oz[s]});
    top = std::max(top, centre.z + bed.sphere_radius[s]);
  }
  return top;
}

BodySet with_plate(const BodySet& settled, const LoadedBedSpec& spec, real gap) {
  BodySet set = settled;
  const Vec3 half{spec.plate_length / 2, spec.plate_width / 2, spec.plate_thickness / 2};
  BodyDesc plate;
  plate.gid = set.gid.back() + 1;
  plate.mass = spec.plate_mass;
  plate.inertia = gpu::solid_box_inertia(plate.mass, half);
  plate.friction = spec.friction;
  plate.position = {spec.box_x / 2, spec.box_y / 2, surface_under_plate(settled, spec) + gap + half.z};
  set.add_box(set.add_body(plate), {0, 0, 0}, half);
  return set;
}

LoadResult run_load_case(const BodySet& loaded, const LoadedBedSpec& spec, const LoadCase& c, double window,
                         const std::function<void(const LoadSample&)>& on_sample) {
  gpu::StepSettings settings = c.settings;
  settings.solver.record_residuals = settings.solver.record_residuals || c.record_last_residuals;
  gpu::RigidBodySystem system(loaded, settings);
  const auto plate = static_cast<std::uint32_t>(loaded.size() - 1);
  const double h = double(c.settings.step_size);
  const double g = -double(c.settings.gravity.z);
  const double surface = double(loaded.pz[plate]) - spec.plate_thickness / 2;
  double bed_mass = 0;
  for (std::size_t i = 0; i < loaded.size(); ++i)
    if (loaded.motion[i] == gpu::Motion::Dynamic && i != plate) bed_mass += double(loaded.mass[i]);

  LoadResult out;
  out.expected_floor_force = c.load_newton + g * (double(spec.plate_mass) + bed_mass);
  const auto steps = static_cast<std::size_t>(std::llround((c.ramp_time + c.hold_time) / h));
  for (std::size_t k = 0; k < steps; ++k) {
    const double t = double(system.time());
    const double ramp = c.ramp_time > 0 ? std::min(1.0, (t + h) / c.ramp_time) : 1.0;
    system.set_applied_force(plate, {0, 0, real(-c.load_newton * ramp)}, {0, 0, 0});
    const auto t0 = std::chrono::steady_clock::now();
    system.step();
    LoadSample s;
    s.step_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    s.time = double(system.time());
    const std::vector<gpu::BodyState> states = system.body_states();
    s.sinkage = surface - (double(states[plate].position.z) - spec.plate_thickness / 2);
    s.plate_velocity_z = double(states[plate].velocity.z);
    for (std::size_t i = 0; i < states.size(); ++i) {
      if (i == plate || loaded.motion[i] != gpu::Motion::Dynamic) continue;
      const double speed = double(std::sqrt(dot(states[i].velocity, states[i].velocity)));
      if (speed > s.max_grain_speed) s.max_grain_speed = speed, s.fastest_grain_position = states[i].position;
    }
    const gpu::StepStats& st = system.last_stats();
    s.residual = double(st.residual);
    s.contacts = st.contacts;
    s.iterations = st.iterations;
    s.floor_force = floor_force(system);
    if (c.record_last_residuals && k + 1 == steps) out.last_residual_curve = st.residual_history;
    out.max_grain_speed = std::max(out.max_grain_speed, s.max_grain_speed);
    if (double(states[plate].position.z) - spec.plate_thickness / 2 < spec.radius) out.plate_lost = true;
    if (on_sample) on_sample(s);
    out.samples.push_back(s);
  }

  const std::size_t n_window = std::max<std::size_t>(2, std::min(out.samples.size(), std::size_t(window / h)));
  const std::size_t first = out.samples.size() - n_window;
  double first_half = 0, second_half = 0;
  for (std::size_t k = first; k < out.samples.size(); ++k) {
    const LoadSample& s = out.samples[k];
    out.mean_sinkage += s.sinkage / double(n_window);
    out.mean_floor_force += s.floor_force / double(n_window);
    out.mean_residual += s.residual / double(n_window);
    (k - first < n_window / 2 ? first_half : second_half) += s.sinkage;
  }
  out.sinkage_drift = second_half / double(n_window - n_window / 2) - first_half / double(n_window / 2);
  for (const LoadSample& s : out.samples) {
    out.mean_step_seconds += s.step_seconds / double(out.samples.size());
    out.mean_iterations += double(s.iterations) / double(out.samples.size());
    out.mean_contacts += double(s.contacts) / double(out.samples.size());
  }
  return out;
}

}  // namespace trackcosim::bench
