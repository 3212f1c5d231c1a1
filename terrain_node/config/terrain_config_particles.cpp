// The `particles` list of a terrain config: one generator per entry, chosen by "kind"
// (docs/terrain-config.md). Besides each key's own range, two checks catch beds that would blow
// up on the first step: every sphere must fit in the container (a sphere inside a wall gets an
// impulse of its whole penetration at once), and two generated boxes must not overlap. The
// file-driven and random sources are read in terrain_config_sources.cpp.

#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include "io/number_text.h"
#include "terrain_node/config/sphere_lattice_json.h"
#include "terrain_node/config/terrain_config_read.h"

namespace trackcosim::terrain::terrain_config_detail {

void check_inside(const io::JsonField& field, std::string_view what, Vec3 lo, Vec3 hi,
                  const std::optional<Container>& container) {
  if (!container) return;
  for (int a = 0; a < 3; ++a) {
    const char name = "xyz"[a];
    if (axis(lo, a) < axis(container->min, a))
      field.fail(std::string(what) + " reaches outside the container along " + name + ": " +
                 io::number_to_string(axis(lo, a)) + " < container.min " + io::number_to_string(axis(container->min, a)));
    if ((a < 2 || !container->open_top) && axis(hi, a) > axis(container->max, a))
      field.fail(std::string(what) + " reaches outside the container along " + name + ": " +
                 io::number_to_string(axis(hi, a)) + " > container.max " + io::number_to_string(axis(container->max, a)));
  }
}

std::array<real, 2> read_xy(const io::JsonField& f) {
  f.expect_array_of_numbers(2);
  const std::vector<io::JsonField> e = f.elements();
  return {e[0].number(), e[1].number()};
}

Rectangle read_rectangle(const io::JsonField& min_field, const io::JsonField& max_field) {
  const auto lo = read_xy(min_field), hi = read_xy(max_field);
  for (int a = 0; a < 2; ++a)
    if (!(hi[a] > lo[a]))
      max_field.fail(std::string("must be > min along ") + "xy"[a] + ", got " + io::number_to_string(hi[a]) +
                     " <= " + io::number_to_string(lo[a]));
  return {lo[0], lo[1], hi[0], hi[1]};
}

void check_disjoint(const io::JsonField& entry, Vec3 lo, Vec3 hi, std::vector<FilledBox>& boxes) {
  for (const FilledBox& other : boxes) {
    bool overlap = true;
    for (int a = 0; a < 3; ++a)
      overlap = overlap && axis(lo, a) < axis(other.hi, a) && axis(other.lo, a) < axis(hi, a);
    if (overlap) entry.fail("its box overlaps the box of " + other.path + ", so their spheres would overlap");
  }
  boxes.push_back({entry.path(), lo, hi});
}

namespace {

constexpr const char* kKeepClear =
    "overlaps an obstacle; lattice, layers and listed spheres must keep clear of obstacles "
    "(random_fill, heightmap and elevation_grid leave out the spheres an obstacle would overlap)";

/// Lattice-like boxes must keep clear of the obstacles (only the surface and random fills carve
/// particles out around them): the box against each obstacle box's faces, so a bed may lie
/// against a tilted box where its axis-aligned bounds would reach into the bed.
void check_clear_of_obstacles(const io::JsonField& field, Vec3 lo, Vec3 hi, const ParticleContext& context) {
  if (context.obstacles == nullptr || context.obstacles->empty()) return;
  if (ObstacleSet(*context.obstacles).overlaps(domain::Aabb{lo, hi})) field.fail(kKeepClear);
}

/// A listed sphere: its centre's true distance to each obstacle box, so a sphere may rest on a
/// tilted face. Touching within a relative 1e-9 of the radius (the rounding of a centre placed
/// at radius from a rotated face) is not an overlap.
void check_sphere_clear_of_obstacles(const io::JsonField& field, Vec3 center, real radius,
                                     const ParticleContext& context) {
  if (context.obstacles == nullptr || context.obstacles->empty()) return;
  if (ObstacleSet(*context.obstacles).overlaps(center, radius * (1 - real(1e-9)))) field.fail(kKeepClear);
}

void check_sphere_inside(const io::JsonField& field, Vec3 center, real radius, const std::optional<Container>& container) {
  const Vec3 r{radius, radius, radius};
  check_inside(field, "the sphere", center - r, center + r, container);
}

LatticeSource read_lattice(const io::JsonField& f, const ParticleContext& context, std::vector<FilledBox>& boxes) {
  f.expect_object({"kind", "material", "min", "max", "spacing", "radius", "jitter", "seed"});
  const SphereLattice lattice = read_sphere_lattice(f);
  // Two neighbours come closest when both jitter towards each other by jitter x spacing.
  const real closest = lattice.spacing * (1 - 2 * lattice.jitter);
  if (closest < 2 * lattice.radius.largest())
    f.member("spacing").fail("neighbouring spheres may overlap: spacing x (1 - 2 jitter) = " +
                             io::number_to_string(closest) + " m is less than the largest diameter " +
                             io::number_to_string(2 * lattice.radius.largest()) + " m");
  check_inside(f.member("max"), "the box [min, max]", lattice.min, lattice.max, context.container);
  check_clear_of_obstacles(f, lattice.min, lattice.max, context);
  check_disjoint(f, lattice.min, lattice.max, boxes);
  return lattice;
}

LayersSource read_layers(const io::JsonField& f, const ParticleContext& context, std::vector<FilledBox>& boxes) {
  f.expect_object({"kind", "material", "min", "max", "bottom", "layers", "radius", "gap", "seed"});
  LayersSource s;
  const io::JsonField max_field = f.member("max");
  const Rectangle area = read_rectangle(f.member("min"), max_field);
  s.x_min = area.x_min, s.y_min = area.y_min, s.x_max = area.x_max, s.y_max = area.y_max;
  s.bottom = f.member("bottom").number();
  const io::JsonField layers = f.member("layers");
  s.layers = layers.unsigned_integer();
  if (s.layers < 1) layers.fail("must be >= 1, got 0");
  s.radius = read_size_distribution(f.member("radius"));
  if (const auto v = f.optional_member("gap")) s.gap = v->non_negative_number();
  if (const auto v = f.optional_member("seed")) s.seed = v->unsigned_integer();

  const SphereLattice lattice = s.lattice();
  checked_lattice_size(lattice, max_field, layers);
  check_inside(f, "the bed", lattice.min, lattice.max, context.container);
  check_clear_of_obstacles(f, lattice.min, lattice.max, context);
  check_disjoint(f, lattice.min, lattice.max, boxes);
  return s;
}

SphereListSource read_spheres(const io::JsonField& f, const ParticleContext& context) {
  f.expect_object({"kind", "material", "spheres"});
  SphereListSource s;
  for (const io::JsonField& item : f.member("spheres").elements()) {
    item.expect_object({"position", "radius", "velocity", "angular_velocity"});
    ExplicitSphere sphere;
    const io::JsonField position = item.member("position");
    sphere.position = position.vec3();
    sphere.radius = read_radius(item.member("radius"));
    if (const auto v = item.optional_member("velocity")) sphere.velocity = v->vec3();
    if (const auto v = item.optional_member("angular_velocity")) sphere.angular_velocity = v->vec3();
    check_sphere_inside(position, sphere.position, sphere.radius, context.container);
    check_sphere_clear_of_obstacles(position, sphere.position, sphere.radius, context);
    s.spheres.push_back(sphere);
  }
  return s;
}

CompoundBody read_compound(const io::JsonField& item, const std::optional<Container>& container) {
  item.expect_object({"position", "orientation", "velocity", "angular_velocity", "mass", "inertia", "spheres"});
  CompoundBody b;
  b.position = item.member("position").vec3();
  if (const auto v = item.optional_member("orientation")) b.orientation = v->unit_quaternion();
  if (const auto v = item.optional_member("velocity")) b.velocity = v->vec3();
  if (const auto v = item.optional_member("angular_velocity")) b.angular_velocity = v->vec3();
  b.mass = number_in_range(item.member("mass"), kMinBodyMass, kMaxBedMass, "kg");
  const io::JsonField inertia = item.member("inertia");
  b.inertia = inertia.vec3();
  if (!(b.inertia.x > 0 && b.inertia.y > 0 && b.inertia.z > 0))
    inertia.fail("must all be > 0, got [" + io::number_to_string(b.inertia.x) + ", " + io::number_to_string(b.inertia.y) +
                 ", " + io::number_to_string(b.inertia.z) + "]");
  const io::JsonField spheres = item.member("spheres");
  for (const io::JsonField& member : spheres.elements()) {
    member.expect_object({"offset", "radius"});
    CompoundBody::Member m;
    m.offset = member.member("offset").vec3();
    m.radius = read_radius(member.member("radius"));
    check_sphere_inside(member, b.position + rotate(b.orientation, m.offset), m.radius, container);
    b.spheres.push_back(m);
  }
  if (b.spheres.empty()) spheres.fail("a compound needs at least one sphere");
  return b;
}

CompoundListSource read_compounds(const io::JsonField& f, const std::optional<Container>& container) {
  f.expect_object({"kind", "material", "bodies"});
  CompoundListSource s;
  for (const io::JsonField& item : f.member("bodies").elements()) s.bodies.push_back(read_compound(item, container));
  return s;
}

}  // namespace

void check_bed_mass(const io::JsonField& list, const TerrainScene& scene) {
  // plan_gid_ranges lists the walls, then one range per source in file order, then the obstacles.
  const std::vector<GidRange> ranges = plan_gid_ranges(scene);
  const std::size_t first_source = ranges.size() - scene.particles.size() - scene.obstacles.size();
  const std::vector<io::JsonField> entries = list.elements();
  double mass = 0;
  for (std::size_t i = 0; i < scene.particles.size(); ++i) {
    const ParticleSource& source = scene.particles[i];
    if (const auto* compounds = std::get_if<CompoundListSource>(&source.generator)) {
      for (const CompoundBody& b : compounds->bodies) mass += b.mass;
    } else if (const auto* rocks = std::get_if<RocksSource>(&source.generator)) {
      mass += double(rocks->count()) * rocks->mass();
    } else {
      TerrainScene alone;  // the largest radius of this source only
      alone.particles = {source};
      const double largest_volume = 4.0 / 3.0 * std::numbers::pi * std::pow(double(largest_sphere_radius(alone)), 3);
      mass += double(ranges[first_source + i].count) * source.material.density * largest_volume;
    }
    if (mass > kMaxBedMass) {
      char weight[32];
      std::snprintf(weight, sizeof weight, "%.3g", mass);
      entries[i].fail("the particles up to this entry may weigh " + std::string(weight) + " kg (count x density x the volume of the largest sphere), more than the " +
                      io::number_to_string(kMaxBedMass) +
                      " kg whose kinetic energy the exact sums can hold; check density (kg/m^3) and radius (m)");
    }
  }
}

std::vector<ParticleSource> read_particles(const io::JsonField& list, const ParticleContext& context) {
  std::vector<ParticleSource> out;
  std::vector<FilledBox> boxes;
  for (const io::JsonField& entry : list.elements()) {
    if (!entry.json().is_object()) entry.expect_object({});  // says "expected an object"
    const std::string kind = entry.member("kind").one_of(
        {"lattice", "layers", "spheres", "compounds", "heightmap", "elevation_grid", "random_fill", "rocks"});
    ParticleSource source;
    if (kind == "lattice") source.generator = read_lattice(entry, context, boxes);
    else if (kind == "layers") source.generator = read_layers(entry, context, boxes);
    else if (kind == "spheres") source.generator = read_spheres(entry, context);
    else if (kind == "compounds") source.generator = read_compounds(entry, context.container);
    else if (kind == "random_fill") source.generator = read_random_fill(entry, context, boxes);
    else if (kind == "rocks") source.generator = read_rocks(entry, context, boxes);
    else source.generator = read_surface_source(entry, kind, context, boxes);
    source.material = context.material;
    if (const auto m = entry.optional_member("material")) source.material = read_material(*m, context.material);
    out.push_back(std::move(source));
  }
  return out;
}

}  // namespace trackcosim::terrain::terrain_config_detail
