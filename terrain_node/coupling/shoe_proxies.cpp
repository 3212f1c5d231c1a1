// The terrain's side of the handshake and its stand-ins for the vehicle's shoes: the welcome
// (bed extent, surface height, particles, material), one kinematic proxy body per shoe made of
// the shoe's spheres, and the spring-damper its contacts get (docs/protocol.md, "Shoe contact
// law").

#include "terrain_node/coupling/shoe_proxies.h"

#include <algorithm>
#include <array>
#include <limits>

namespace trackcosim::terrain {


/// The welcome: the bed's extent, its surface height (the highest sphere top), particle count
/// and material, reduced over every rank's share of the particles: no rank gathers the bed.
/// Each particle is in exactly one rank's snapshot piece (owned, a moving patch's fixed ones by
/// the owner of their position, the store), the set the welcome always counted; min and max
/// pick one operand and the count is an integer, so the figures are the same bits on any rank
/// count.
cosim::TerrainWelcome make_welcome(const DistributedTerrain& terrain, const TerrainConfig& config) {
  const real largest = terrain.largest_sphere_radius();
  cosim::TerrainWelcome w;
  w.terrain_step = config.scene.step.step_size;
  w.checkpoint = true;  // this terrain answers a checkpoint frame (coupling_checkpoint.h)
  w.friction = config.scene.material.friction;
  w.density = config.scene.material.density;
  const double inf = std::numeric_limits<double>::infinity();
  std::array<double, 3> lo{inf, inf, inf}, hi{-inf, -inf, -inf};
  std::uint64_t particles = 0;
  const SnapshotPiece piece = terrain.snapshot_piece();
  for (std::size_t i = 0; i < piece.bodies.size(); ++i) {
    if (!is_particle(config.gid_ranges, piece.bodies.gid[i])) continue;
    const Vec3 p = piece.bodies.state(i).position;
    lo = {std::min<double>(lo[0], p.x), std::min<double>(lo[1], p.y), std::min<double>(lo[2], p.z)};
    hi = {std::max<double>(hi[0], p.x), std::max<double>(hi[1], p.y), std::max<double>(hi[2], p.z)};
    ++particles;
  }
  const comm::RankGroup& group = terrain.group();
  group.min_in_place(lo);
  group.max_in_place(hi);
  w.particles = group.sum(particles);
  if (w.particles > 0) {
    w.patch_min = {real(lo[0]), real(lo[1]), real(lo[2])};
    w.patch_max = {real(hi[0]), real(hi[1]), real(hi[2])};
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
/// (errors shrink by 0.88 per step; tools/launcher/coupling_stability.py prints both maps). The default
/// is for the whole shoe and shared by its spheres, so it holds however many of them touch.
/// A kinematic proxy (K infinite) breaks either bound by any margin: the force then swung
/// between 0 and several times the weight from one interval to the next.
/// A vehicle that integrates the loads implicitly (hello "stiffness") is not bound by either: its
/// shoes meet the grains at least as stiffly as the grains meet each other (their contact law),
/// or, among rigid grains, with the springs half the coupling step would get (4 times). Not
/// stiffer there: the friction stays explicit, and on the rigid floor of the plane terrain 16
/// times made the M113's shoes chatter (tests/mpi/cosim_plane_run.sh; 4 times: 0.32 mm from the
/// rigid ground, the explicit coupling 0.65 mm).
/// The light robot's explicit springs (1.2e4 N/m at 1 ms) set its sinkage (docs/ccp.md).
gpu::CompliantBody shoe_spring(gpu::GlobalId gid, const cosim::ShoeGeometry& shoe, const cosim::VehicleHello& hello,
                               const gpu::StepSettings& grains, const CosimSettings& settings) {
  const bool sequential = hello.scheme == "sequential";
  const double a = sequential ? 2.0 / 3.0 : 0.15, b = sequential ? 1.0 / 3.0 : 0.3;
  const double H = hello.coupling_step;
  const double spheres = static_cast<double>(std::max<std::size_t>(1, shoe.spheres.size()));
  double stiffness = a * shoe.mass / (H * H * spheres), damping = b * shoe.mass / (H * spheres);
  if (hello.stiffness) {
    constexpr double kRigidGrainsFactor = 4;
    stiffness = std::max<double>(stiffness, grains.solver.contact_stiffness > 0 ? grains.solver.contact_stiffness
                                                                           : kRigidGrainsFactor * stiffness);
    damping = std::max<double>(damping, grains.solver.contact_damping);
  }
  gpu::CompliantBody c{gid, settings.shoe_stiffness, settings.shoe_damping};
  if (c.stiffness <= 0) c.stiffness = stiffness;
  if (c.damping <= 0) c.damping = damping;
  return c;
}

std::vector<cosim::ShoeStiffness> shoe_stiffness(const std::vector<std::array<double, 21>>& geometry_sums,
                                                 const std::vector<gpu::CompliantBody>& springs, std::uint64_t substeps) {
  std::vector<cosim::ShoeStiffness> out(geometry_sums.size());
  for (std::size_t i = 0; i < geometry_sums.size(); ++i)
    for (std::size_t m = 0; m < 21; ++m) {
      const double mean = geometry_sums[i][m] / static_cast<double>(substeps);
      out[i].stiffness[m] = springs[i].stiffness * mean;
      out[i].damping[m] = springs[i].damping * mean;
    }
  return out;
}

gpu::BodyState body_state(gpu::GlobalId gid, const cosim::ShoeState& s) {
  const double* p = s.position;
  const double* q = s.orientation;
  const double* v = s.velocity;
  const double* w = s.angular_velocity;
  return {gid, {p[0], p[1], p[2]}, {q[0], q[1], q[2], q[3]}, {v[0], v[1], v[2]}, {w[0], w[1], w[2]}};
}

}  // namespace trackcosim::terrain
