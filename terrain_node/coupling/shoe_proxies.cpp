// The terrain's side of the handshake and its stand-ins for the vehicle's shoes: the welcome
// (bed extent, surface height, particles, material), one kinematic proxy body per shoe made of
// the shoe's spheres, and the spring-damper its contacts get (docs/protocol.md, "Shoe contact
// law").

#include "terrain_node/coupling/shoe_proxies.h"

#include <algorithm>

namespace trackcosim::terrain {


/// The welcome: the bed's extent, its surface height (the highest sphere top), particle count
/// and material, from every rank's bodies.
cosim::TerrainWelcome make_welcome(const DistributedTerrain& terrain, const TerrainConfig& config) {
  const std::vector<gpu::BodyState> states = terrain.gather_states();
  const real largest = terrain.largest_sphere_radius();
  cosim::TerrainWelcome w;
  w.terrain_step = config.scene.step.step_size;
  w.checkpoint = true;  // this terrain answers a checkpoint frame (coupling_checkpoint.h)
  w.friction = config.scene.material.friction;
  w.density = config.scene.material.density;
  if (!terrain.leader()) return w;
  bool any = false;
  for (std::size_t i = 0; i < states.size(); ++i) {
    if (!is_particle(config.gid_ranges, states[i].gid)) continue;
    const Vec3 p = states[i].position;
    if (!any) w.patch_min = w.patch_max = p;
    w.patch_min = {std::min(w.patch_min.x, p.x), std::min(w.patch_min.y, p.y), std::min(w.patch_min.z, p.z)};
    w.patch_max = {std::max(w.patch_max.x, p.x), std::max(w.patch_max.y, p.y), std::max(w.patch_max.z, p.z)};
    any = true;
    ++w.particles;
  }
  w.surface_height = w.patch_max.z + largest;
  if (config.scene.container) {
    w.patch_min.x = config.scene.container->min.x, w.patch_min.y = config.scene.container->min.y;
    w.patch_max.x = config.scene.container->max.x, w.patch_max.y = config.scene.container->max.y;
  }
  return w;
}

gpu::BodySet shoe_proxies(const cosim::VehicleHello& hello, gpu::GlobalId first_gid, real friction) {
  gpu::BodySet set;
  for (std::size_t i = 0; i < hello.shoes.size(); ++i) {
    const cosim::ShoeState& s = hello.initial[i];
    gpu::BodyDesc d;
    d.gid = first_gid + i;
    d.motion = gpu::Motion::Kinematic;
    d.position = {s.position[0], s.position[1], s.position[2]};
    d.orientation = {s.orientation[0], s.orientation[1], s.orientation[2], s.orientation[3]};
    d.velocity = {s.velocity[0], s.velocity[1], s.velocity[2]};
    d.angular_velocity = {s.angular_velocity[0], s.angular_velocity[1], s.angular_velocity[2]};
    d.mass = hello.shoes[i].mass;
    d.friction = friction;
    const std::uint32_t b = set.add_body(d);
    for (const cosim::ShoeGeometry::Sphere& sp : hello.shoes[i].spheres) set.add_sphere(b, sp.offset, sp.radius);
  }
  return set;
}

/// The shoe proxies' spring-dampers (docs/protocol.md, "Shoe contact law"). The coupling is
/// explicit. Take one shoe alone (mass m, the track's fastest mode) with spring K and damper C,
/// a = K H^2 / m and b = C H / m over the coupling step H; the proxy's implicit spring adds K H
/// to the damping. A sequential vehicle applies the force of the state at the interval's start:
/// stable for a + b < 2 and 3a + 2b < 4, default a = 2/3, b = 1/3. A concurrent one applies it
/// one interval later: stable only up to a = 0.24 (at b = 0.25), default a = 0.15, b = 0.3
/// (errors shrink by 0.88 per step; tools/coupling_stability.py prints both maps). The default
/// is for the whole shoe and shared by its spheres, so it holds however many of them touch.
/// A kinematic proxy (K infinite) breaks either bound by any margin: the force then swung
/// between 0 and several times the weight from one interval to the next.
gpu::CompliantBody shoe_spring(gpu::GlobalId gid, const cosim::ShoeGeometry& shoe, const cosim::VehicleHello& hello,
                               const CosimSettings& settings) {
  const bool sequential = hello.scheme == "sequential";
  const double a = sequential ? 2.0 / 3.0 : 0.15, b = sequential ? 1.0 / 3.0 : 0.3;
  const double H = hello.coupling_step;
  const double spheres = static_cast<double>(std::max<std::size_t>(1, shoe.spheres.size()));
  gpu::CompliantBody c{gid, settings.shoe_stiffness, settings.shoe_damping};
  if (c.stiffness <= 0) c.stiffness = a * shoe.mass / (H * H * spheres);
  if (c.damping <= 0) c.damping = b * shoe.mass / (H * spheres);
  return c;
}

gpu::BodyState body_state(gpu::GlobalId gid, const cosim::ShoeState& s) {
  const double* p = s.position;
  const double* q = s.orientation;
  const double* v = s.velocity;
  const double* w = s.angular_velocity;
  return {gid, {p[0], p[1], p[2]}, {q[0], q[1], q[2], q[3]}, {v[0], v[1], v[2]}, {w[0], w[1], w[2]}};
}

}  // namespace trackcosim::terrain
