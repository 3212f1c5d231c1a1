// From a terrain description to bodies: the container walls, then every `particles` entry in file
// order, gids dense from 0 in that order. Each generated sphere is a body of its own whose mass
// and inertia follow from its radius and the source's density.

#include <numbers>
#include <string>
#include <type_traits>

#include "cosim/sphere_lattice.h"
#include "cosim/terrain_config.h"

namespace trackcosim::cosim {
namespace {

struct Wall {
  const char* name;
  Vec3 point, normal;  ///< normal points into the container
  bool side;
};

/// Floor, -x, +x, -y, +y, then the lid when the top is closed: the gid order of the walls.
std::vector<Wall> container_walls(const Container& c) {
  std::vector<Wall> walls{{"container.floor", c.min, {0, 0, 1}, false},
                          {"container.wall_x_min", c.min, {1, 0, 0}, true},
                          {"container.wall_x_max", c.max, {-1, 0, 0}, true},
                          {"container.wall_y_min", c.min, {0, 1, 0}, true},
                          {"container.wall_y_max", c.max, {0, -1, 0}, true}};
  if (!c.open_top) walls.push_back({"container.lid", c.max, {0, 0, -1}, true});
  return walls;
}

std::uint64_t lattice_size(const SphereLattice& lattice) {
  const auto cells = lattice_cells_per_axis(lattice);
  return cells[0] * cells[1] * cells[2];
}

std::uint64_t body_count(const ParticleSource& source) {
  return std::visit(
      [](const auto& g) -> std::uint64_t {
        using T = std::decay_t<decltype(g)>;
        if constexpr (std::is_same_v<T, LatticeSource>) return lattice_size(g);
        else if constexpr (std::is_same_v<T, LayersSource>) return lattice_size(g.lattice());
        else if constexpr (std::is_same_v<T, SphereListSource>) return g.spheres.size();
        else return g.bodies.size();
      },
      source.generator);
}

const char* kind_name(const ParticleSource& source) {
  constexpr const char* names[] = {"lattice", "layers", "spheres", "compounds"};
  return names[source.generator.index()];
}

void add_sphere_body(gpu::BodySet& bodies, gpu::GlobalId gid, Vec3 position, real radius, Vec3 velocity,
                     Vec3 angular_velocity, const Material& material) {
  gpu::BodyDesc body;
  body.gid = gid;
  body.position = position;
  body.velocity = velocity;
  body.angular_velocity = angular_velocity;
  body.mass = material.density * real(4.0 / 3.0 * std::numbers::pi) * radius * radius * radius;
  body.inertia = gpu::solid_sphere_inertia(body.mass, radius);
  body.friction = material.friction;
  bodies.add_sphere(bodies.add_body(body), {0, 0, 0}, radius);
}

void add_lattice(gpu::BodySet& bodies, SphereLattice lattice, gpu::GlobalId first, const Material& material) {
  lattice.first_id = first;
  gpu::SphereShapes spheres;
  generate_lattice(lattice, spheres);
  for (std::size_t i = 0; i < spheres.size(); ++i)
    add_sphere_body(bodies, spheres.body_gid[i], {spheres.x[i], spheres.y[i], spheres.z[i]}, spheres.radius[i],
                    {0, 0, 0}, {0, 0, 0}, material);
}

void add_compound(gpu::BodySet& bodies, gpu::GlobalId gid, const CompoundBody& c, const Material& material) {
  gpu::BodyDesc body;
  body.gid = gid;
  body.position = c.position;
  body.orientation = c.orientation;
  body.velocity = c.velocity;
  body.angular_velocity = c.angular_velocity;
  body.mass = c.mass;
  body.inertia = c.inertia;
  body.friction = material.friction;
  const std::uint32_t index = bodies.add_body(body);
  for (const CompoundBody::Member& m : c.spheres) bodies.add_sphere(index, m.offset, m.radius);
}

}  // namespace

SphereLattice LayersSource::lattice() const {
  SphereLattice l;
  l.min = {x_min, y_min, bottom};
  l.max = {x_max, y_max, top()};
  l.spacing = pitch();
  l.radius_min = radius.min;
  l.radius_max = radius.max;
  // Offsets up to radius.max * gap either way: two neighbours of the largest size just touch.
  l.jitter = gap / (2 * (1 + gap));
  l.jitter_z = false;
  l.seed = seed;
  return l;
}

std::vector<GidRange> plan_gid_ranges(const TerrainScene& scene) {
  std::vector<GidRange> ranges;
  gpu::GlobalId next = 0;
  if (scene.container)
    for (const Wall& wall : container_walls(*scene.container)) ranges.push_back({wall.name, next++, 1});
  for (std::size_t i = 0; i < scene.particles.size(); ++i) {
    const std::uint64_t count = body_count(scene.particles[i]);
    ranges.push_back(
        {"particles[" + std::to_string(i) + "] (" + kind_name(scene.particles[i]) + ")", next, count});
    next += count;
  }
  return ranges;
}

gpu::BodySet build_terrain_bodies(const TerrainScene& scene) {
  gpu::BodySet bodies;
  gpu::GlobalId gid = 0;
  if (scene.container)
    for (const Wall& wall : container_walls(*scene.container)) {
      gpu::BodyDesc body;
      body.gid = gid++;
      body.position = wall.point;
      body.motion = gpu::Motion::Fixed;
      body.friction = wall.side ? scene.container->wall_friction : scene.container->floor_friction;
      bodies.add_plane(bodies.add_body(body), {0, 0, 0}, wall.normal);
    }
  for (const ParticleSource& source : scene.particles) {
    const Material& material = source.material;
    std::visit(
        [&](const auto& g) {
          using T = std::decay_t<decltype(g)>;
          if constexpr (std::is_same_v<T, LatticeSource>) add_lattice(bodies, g, gid, material);
          else if constexpr (std::is_same_v<T, LayersSource>) add_lattice(bodies, g.lattice(), gid, material);
          else if constexpr (std::is_same_v<T, SphereListSource>) {
            gpu::GlobalId next = gid;
            for (const ExplicitSphere& s : g.spheres)
              add_sphere_body(bodies, next++, s.position, s.radius, s.velocity, s.angular_velocity, material);
          } else {
            gpu::GlobalId next = gid;
            for (const CompoundBody& c : g.bodies) add_compound(bodies, next++, c, material);
          }
        },
        source.generator);
    gid += body_count(source);
  }
  return bodies;
}

}  // namespace trackcosim::cosim
