// From a terrain description to bodies: the container walls, then every `particles` entry in file
// order, then the obstacles, then the `bodies` entries, gids dense from 0 in that order. Each
// generated sphere is a body of its own whose mass and inertia follow from its radius and the
// source's density. A source's gid block is fixed by the counts alone, so a rank that builds only
// its region gives its particles the gids one rank would.

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <string>
#include <type_traits>

#include "terrain_node/config/terrain_config.h"
#include "terrain_node/generators/counter_random.h"
#include "terrain_node/generators/sphere_lattice.h"

namespace trackcosim::terrain {
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
        else if constexpr (std::is_same_v<T, CompoundListSource>) return g.bodies.size();
        else if constexpr (std::is_same_v<T, RocksSource>) return g.count();
        else return g.plan->count();
      },
      source.generator);
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

/// Room for n more single-sphere bodies: a million-body set then grows in one step per array
/// instead of twenty doublings (measured: about a third of the build time at 10^6).
void reserve_spheres(gpu::BodySet& b, std::size_t n) {
  const std::size_t bodies = b.size() + n, spheres = b.sphere_radius.size() + n;
  for (auto* v : {&b.px, &b.py, &b.pz, &b.qw, &b.qx, &b.qy, &b.qz, &b.vx, &b.vy, &b.vz, &b.wx, &b.wy, &b.wz, &b.mass,
                  &b.ix, &b.iy, &b.iz, &b.friction, &b.fx, &b.fy, &b.fz, &b.tx, &b.ty, &b.tz})
    v->reserve(bodies);
  b.gid.reserve(bodies);
  b.motion.reserve(bodies);
  for (auto* v : {&b.sphere_ox, &b.sphere_oy, &b.sphere_oz, &b.sphere_radius}) v->reserve(spheres);
  b.sphere_body.reserve(spheres);
  b.sphere_shape.reserve(spheres);
}

void add_spheres(gpu::BodySet& bodies, const gpu::SphereShapes& spheres, const Material& material) {
  reserve_spheres(bodies, spheres.size());
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

/// A uniformly random rotation from three uniform numbers (Shoemake 1992, "Uniform random rotations").
Quat random_rotation(double u1, double u2, double u3) {
  constexpr double kTwoPi = 2 * std::numbers::pi;
  const double a = std::sqrt(1 - u1), b = std::sqrt(u1);
  return {real(b * std::cos(kTwoPi * u3)), real(a * std::sin(kTwoPi * u2)), real(a * std::cos(kTwoPi * u2)),
          real(b * std::sin(kTwoPi * u3))};
}

/// The rocks whose centre of mass lies in `region`: cell n (x fastest, then y, then z) gets gid
/// first + n, its place and turn drawn from (seed, n, 0..5) alone.
std::uint64_t add_rocks(gpu::BodySet& bodies, const RocksSource& g, gpu::GlobalId first, const domain::Aabb& region,
                        const Material& material) {
  const std::array<std::uint64_t, 3> cells = g.cells();
  const double d = g.cell(), room = d / 2 - g.reach();
  const double lo[3] = {g.min.x + 0.5 * (g.max.x - g.min.x - double(cells[0]) * d) + 0.5 * d,
                        g.min.y + 0.5 * (g.max.y - g.min.y - double(cells[1]) * d) + 0.5 * d,
                        g.min.z + 0.5 * (g.max.z - g.min.z - double(cells[2]) * d) + 0.5 * d};
  std::uint64_t built = 0, n = 0;
  for (std::uint64_t k = 0; k < cells[2]; ++k)
    for (std::uint64_t j = 0; j < cells[1]; ++j)
      for (std::uint64_t i = 0; i < cells[0]; ++i, ++n) {
        auto jitter = [&](int axis) { return room * (2 * counter_unit(g.seed, n, std::uint64_t(axis)) - 1); };
        const Vec3 p{real(lo[0] + double(i) * d + jitter(0)), real(lo[1] + double(j) * d + jitter(1)),
                     real(lo[2] + double(k) * d + jitter(2))};
        if (!region.contains(p)) continue;
        const Quat turn = random_rotation(counter_unit(g.seed, n, 3), counter_unit(g.seed, n, 4),
                                          counter_unit(g.seed, n, 5));
        gpu::BodyDesc body;
        body.gid = first + n;
        body.position = p;
        body.orientation = multiply(turn, g.shape.principal);
        body.mass = g.mass();
        body.inertia = g.inertia();
        body.friction = material.friction;
        const std::uint32_t index = bodies.add_body(body);
        for (const CompoundBody::Member& m : g.shape.spheres) bodies.add_sphere(index, m.offset, m.radius);
        ++built;
      }
  return built;
}

/// The particles of one source inside `region`, gids from `first`; returns how many were built.
std::uint64_t add_source(gpu::BodySet& bodies, const ParticleSource& source, gpu::GlobalId first,
                         const domain::Aabb& region) {
  const Material& material = source.material;
  gpu::SphereShapes spheres;
  std::uint64_t built = 0;
  std::visit(
      [&](const auto& g) {
        using T = std::decay_t<decltype(g)>;
        if constexpr (std::is_same_v<T, LatticeSource> || std::is_same_v<T, LayersSource>) {
          SphereLattice lattice;
          if constexpr (std::is_same_v<T, LayersSource>) lattice = g.lattice();
          else lattice = g;
          lattice.first_id = first;
          built = generate_lattice(lattice, spheres, region);
        } else if constexpr (std::is_same_v<T, SphereListSource>) {
          gpu::GlobalId next = first;
          for (const ExplicitSphere& s : g.spheres) {
            if (region.contains(s.position)) {
              add_sphere_body(bodies, next, s.position, s.radius, s.velocity, s.angular_velocity, material);
              ++built;
            }
            ++next;
          }
        } else if constexpr (std::is_same_v<T, CompoundListSource>) {
          gpu::GlobalId next = first;
          for (const CompoundBody& c : g.bodies) {
            if (region.contains(c.position)) {
              add_compound(bodies, next, c, material);
              ++built;
            }
            ++next;
          }
        } else if constexpr (std::is_same_v<T, RocksSource>) {
          built = add_rocks(bodies, g, first, region, material);
        } else {
          built = g.plan->generate(first, region, spheres);
        }
      },
      source.generator);
  add_spheres(bodies, spheres, material);
  return built;
}

void add_fixed_body(gpu::BodySet& bodies, gpu::GlobalId gid, Vec3 position, real friction) {
  gpu::BodyDesc body;
  body.gid = gid;
  body.position = position;
  body.motion = gpu::Motion::Fixed;
  body.friction = friction;
  bodies.add_body(body);
}


}  // namespace

real RocksSource::reach() const {
  double r = 0;
  for (const CompoundBody::Member& m : shape.spheres)
    r = std::max(r, std::sqrt(double(dot(m.offset, m.offset))) + double(m.radius));
  return real(r);
}

std::array<std::uint64_t, 3> RocksSource::cells() const {
  const double d = cell();
  const double extent[3] = {max.x - min.x, max.y - min.y, max.z - min.z};
  std::array<std::uint64_t, 3> n{};
  for (int a = 0; a < 3; ++a) {
    const double fit = d > 0 ? std::floor(extent[a] / d + 1e-9) : 0;
    n[a] = fit > 0 ? static_cast<std::uint64_t>(fit) : 0;
  }
  return n;
}

std::uint64_t RocksSource::count() const {
  const std::array<std::uint64_t, 3> n = cells();
  return n[0] * n[1] * n[2];
}

SphereLattice LayersSource::lattice() const {
  SphereLattice l;
  l.min = {x_min, y_min, bottom};
  l.max = {x_max, y_max, top()};
  l.spacing = pitch();
  l.radius = radius;
  // Offsets up to radius.max * gap either way: two neighbours of the largest size just touch.
  l.jitter = gap / (2 * (1 + gap));
  l.jitter_z = false;
  l.seed = seed;
  return l;
}

const char* source_kind(const ParticleSource& source) {
  if (const auto* surface = std::get_if<SurfaceSource>(&source.generator))
    return surface->input.format == "heightmap" ? "heightmap" : "elevation_grid";
  constexpr const char* names[] = {"lattice", "layers", "spheres", "compounds", "", "random_fill", "rocks"};
  return names[source.generator.index()];
}

std::vector<GidRange> plan_gid_ranges(const TerrainScene& scene) {
  std::vector<GidRange> ranges;
  gpu::GlobalId next = 0;
  if (scene.container)
    for (const Wall& wall : container_walls(*scene.container)) ranges.push_back({wall.name, next++, 1});
  for (std::size_t i = 0; i < scene.particles.size(); ++i) {
    const std::uint64_t count = body_count(scene.particles[i]);
    ranges.push_back(
        {"particles[" + std::to_string(i) + "] (" + source_kind(scene.particles[i]) + ")", next, count});
    next += count;
  }
  for (std::size_t i = 0; i < scene.obstacles.size(); ++i)
    ranges.push_back(
        {"obstacles[" + std::to_string(i) + "] (" + scene.obstacles[i].kind_name() + ")", next++, 1});
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    ranges.push_back({body_label(i, scene.bodies[i]), next++, 1});
  }
  return ranges;
}

std::uint64_t body_count(const TerrainScene& scene) { return body_count(plan_gid_ranges(scene)); }

std::uint64_t body_count(const std::vector<GidRange>& ranges) {
  std::uint64_t n = 0;
  for (const GidRange& r : ranges) n += r.count;
  return n;
}

std::string body_label(std::size_t i, const SceneBody& b) {
  return "bodies[" + std::to_string(i) + "] (" + (b.name.empty() ? "" : b.name + ", ") + motion_name(b.motion) + ")";
}

gpu::GlobalId body_gid(const TerrainScene& scene, std::size_t i) {
  const std::vector<GidRange> ranges = plan_gid_ranges(scene);
  return ranges[ranges.size() - scene.bodies.size() + i].first;
}

std::uint64_t sphere_count(const TerrainScene& scene) {
  std::uint64_t n = 0;
  for (const SceneBody& b : scene.bodies) n += b.shape.spheres.size();
  for (const ParticleSource& source : scene.particles)
    if (const auto* c = std::get_if<CompoundListSource>(&source.generator))
      for (const CompoundBody& b : c->bodies) n += b.spheres.size();
    else if (const auto* rocks = std::get_if<RocksSource>(&source.generator))
      n += rocks->count() * rocks->shape.spheres.size();
    else
      n += body_count(source);
  return n;
}

real largest_sphere_radius(const TerrainScene& scene) {
  real r = 0;
  for (const ParticleSource& source : scene.particles)
    std::visit(
        [&](const auto& g) {
          using T = std::decay_t<decltype(g)>;
          if constexpr (std::is_same_v<T, LatticeSource>) r = std::max(r, g.radius.largest());
          else if constexpr (std::is_same_v<T, LayersSource>) r = std::max(r, g.radius.largest());
          else if constexpr (std::is_same_v<T, SphereListSource>) {
            for (const ExplicitSphere& s : g.spheres) r = std::max(r, s.radius);
          } else if constexpr (std::is_same_v<T, CompoundListSource>) {
            for (const CompoundBody& b : g.bodies)
              for (const CompoundBody::Member& m : b.spheres) r = std::max(r, m.radius);
          } else if constexpr (std::is_same_v<T, SurfaceSource>) {
            for (const Stratum& s : g.fill.strata) r = std::max(r, s.radius.largest());
          } else if constexpr (std::is_same_v<T, RocksSource>) {
            for (const CompoundBody::Member& m : g.shape.spheres) r = std::max(r, m.radius);
          } else {
            r = std::max(r, g.fill.radius.largest());
          }
        },
        source.generator);
  return r;
}

bool is_particle(const std::vector<GidRange>& ranges, gpu::GlobalId gid) {
  for (const GidRange& r : ranges)
    if (gid >= r.first && gid < r.first + r.count) return r.what.rfind("particles[", 0) == 0;
  return false;
}

domain::Aabb particle_bounds(const TerrainScene& scene) {
  domain::Aabb box{{0, 0, 0}, {0, 0, 0}};
  bool any = false;
  auto add = [&](Vec3 lo, Vec3 hi) {
    if (!any) box = {lo, hi};
    box.lo = {std::min(box.lo.x, lo.x), std::min(box.lo.y, lo.y), std::min(box.lo.z, lo.z)};
    box.hi = {std::max(box.hi.x, hi.x), std::max(box.hi.y, hi.y), std::max(box.hi.z, hi.z)};
    any = true;
  };
  for (const ParticleSource& source : scene.particles)
    std::visit(
        [&](const auto& g) {
          using T = std::decay_t<decltype(g)>;
          if constexpr (std::is_same_v<T, LatticeSource>) add(g.min, g.max);
          else if constexpr (std::is_same_v<T, LayersSource>) add(g.lattice().min, g.lattice().max);
          else if constexpr (std::is_same_v<T, SphereListSource>) {
            for (const ExplicitSphere& s : g.spheres) add(s.position, s.position);
          } else if constexpr (std::is_same_v<T, CompoundListSource>) {
            for (const CompoundBody& b : g.bodies) add(b.position, b.position);
          } else if constexpr (std::is_same_v<T, SurfaceSource>) {
            const Rectangle& a = g.fill.area;
            add({a.x_min, a.y_min, g.fill.bottom}, {a.x_max, a.y_max, std::max(g.fill.bottom, g.fill.surface->highest())});
          } else if constexpr (std::is_same_v<T, RocksSource>) {
            add(g.min, g.max);
          } else {
            add(g.fill.min, g.fill.max);
          }
        },
        source.generator);
  return box;
}

// The load of t = 0 is applied here; a standalone run sets the later ones (standalone/body_loads.h).
void add_scene_body(gpu::BodySet& bodies, gpu::GlobalId gid, const SceneBody& b) {
  gpu::BodyDesc body;
  body.gid = gid;
  body.position = b.position;
  body.orientation = b.body_orientation();
  body.motion = b.motion;
  body.friction = b.friction;
  if (gpu::is_dynamic(b.motion)) {
    body.velocity = b.velocity;
    body.angular_velocity = b.angular_velocity;
    body.mass = b.mass();
    body.inertia = b.inertia();
    const BodyLoad load = b.load_at(0);
    body.applied_force = load.force;
    body.applied_torque = load.torque;
  }
  const std::uint32_t index = bodies.add_body(body);
  for (const CompoundBody::Member& m : b.shape.spheres) bodies.add_sphere(index, m.offset, m.radius);
}

gpu::BodySet build_terrain_bodies(const TerrainScene& scene, const domain::Aabb& region, std::uint64_t* built) {
  gpu::BodySet bodies;
  gpu::GlobalId gid = 0;
  if (scene.container)
    for (const Wall& wall : container_walls(*scene.container)) {
      add_fixed_body(bodies, gid, wall.point, wall.side ? scene.container->wall_friction : scene.container->floor_friction);
      bodies.add_plane(std::uint32_t(bodies.size() - 1), {0, 0, 0}, wall.normal);
      ++gid;
    }
  std::uint64_t particles = 0;
  for (std::size_t i = 0; i < scene.particles.size(); ++i) {
    const ParticleSource& source = scene.particles[i];
    try {
      particles += add_source(bodies, source, gid, region);
    } catch (const io::ConfigError& e) {
      // A random fill finds an impossible quota only while it generates.
      throw io::ConfigError("particles[" + std::to_string(i) + "] (" + source_kind(source) + "): " + e.what());
    }
    gid += body_count(source);
  }
  for (const Obstacle& o : scene.obstacles) {
    add_fixed_body(bodies, gid++, o.position(), o.friction);
    const auto index = std::uint32_t(bodies.size() - 1);
    for (const OrientedBox& b : o.boxes())
      bodies.add_box(index, b.center - o.position(), b.half_extents, b.orientation);
  }
  for (const SceneBody& b : scene.bodies) {
    const gpu::GlobalId id = gid++;
    // A moving body is built by the rank whose region holds its centre of mass, as a particle.
    if (gpu::is_dynamic(b.motion) && !region.contains(b.position)) continue;
    add_scene_body(bodies, id, b);
  }
  if (built != nullptr) *built = particles;
  return bodies;
}

}  // namespace trackcosim::terrain
