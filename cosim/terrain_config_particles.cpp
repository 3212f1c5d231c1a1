// The `particles` list of a terrain config: one generator per entry, chosen by "kind"
// (docs/terrain-config.md). Besides each key's own range, two checks catch beds that would blow
// up on the first step: every sphere must fit in the container (a sphere inside a wall gets an
// impulse of its whole penetration at once), and two generated boxes must not overlap.

#include <string>

#include "cosim/number_text.h"
#include "cosim/sphere_lattice_json.h"
#include "cosim/terrain_config_read.h"

namespace trackcosim::cosim::terrain_config_detail {
namespace {

/// The boxes filled by the lattice and layered sources read so far.
struct FilledBox {
  std::string path;
  Vec3 lo, hi;
};

/// Fails on `field` when [lo, hi] leaves the container; the lid counts only when the top is closed.
void check_inside(const JsonField& field, std::string_view what, Vec3 lo, Vec3 hi,
                  const std::optional<Container>& container) {
  if (!container) return;
  for (int a = 0; a < 3; ++a) {
    const char name = "xyz"[a];
    if (axis(lo, a) < axis(container->min, a))
      field.fail(std::string(what) + " reaches outside the container along " + name + ": " +
                 number_to_string(axis(lo, a)) + " < container.min " + number_to_string(axis(container->min, a)));
    if ((a < 2 || !container->open_top) && axis(hi, a) > axis(container->max, a))
      field.fail(std::string(what) + " reaches outside the container along " + name + ": " +
                 number_to_string(axis(hi, a)) + " > container.max " + number_to_string(axis(container->max, a)));
  }
}

void check_sphere_inside(const JsonField& field, Vec3 center, real radius, const std::optional<Container>& container) {
  const Vec3 r{radius, radius, radius};
  check_inside(field, "the sphere", center - r, center + r, container);
}

/// Boxes touching along a face are fine; sharing a volume would generate overlapping spheres.
void check_disjoint(const JsonField& entry, Vec3 lo, Vec3 hi, std::vector<FilledBox>& boxes) {
  for (const FilledBox& other : boxes) {
    bool overlap = true;
    for (int a = 0; a < 3; ++a)
      overlap = overlap && axis(lo, a) < axis(other.hi, a) && axis(other.lo, a) < axis(hi, a);
    if (overlap) entry.fail("its box overlaps the box of " + other.path + ", so their spheres would overlap");
  }
  boxes.push_back({entry.path(), lo, hi});
}

/// [x, y]
std::array<real, 2> read_xy(const JsonField& f) {
  f.expect_array_of_numbers(2);
  const std::vector<JsonField> e = f.elements();
  return {e[0].number(), e[1].number()};
}

LatticeSource read_lattice(const JsonField& f, const std::optional<Container>& container,
                           std::vector<FilledBox>& boxes) {
  f.expect_object({"kind", "material", "min", "max", "spacing", "radius", "jitter", "seed"});
  const SphereLattice lattice = read_sphere_lattice(f);
  // Two neighbours come closest when both jitter towards each other by jitter x spacing.
  const real closest = lattice.spacing * (1 - 2 * lattice.jitter);
  if (closest < 2 * lattice.radius_max)
    f.member("spacing").fail("neighbouring spheres may overlap: spacing x (1 - 2 jitter) = " +
                             number_to_string(closest) + " m is less than the largest diameter " +
                             number_to_string(2 * lattice.radius_max) + " m");
  check_inside(f.member("max"), "the box [min, max]", lattice.min, lattice.max, container);
  check_disjoint(f, lattice.min, lattice.max, boxes);
  return lattice;
}

LayersSource read_layers(const JsonField& f, const std::optional<Container>& container,
                         std::vector<FilledBox>& boxes) {
  f.expect_object({"kind", "material", "min", "max", "bottom", "layers", "radius", "gap", "seed"});
  LayersSource s;
  const auto lo = read_xy(f.member("min"));
  const JsonField max_field = f.member("max");
  const auto hi = read_xy(max_field);
  for (int a = 0; a < 2; ++a)
    if (!(hi[a] > lo[a]))
      max_field.fail(std::string("must be > min along ") + "xy"[a] + ", got " + number_to_string(hi[a]) +
                     " <= " + number_to_string(lo[a]));
  s.x_min = lo[0], s.y_min = lo[1], s.x_max = hi[0], s.y_max = hi[1];
  s.bottom = f.member("bottom").number();
  const JsonField layers = f.member("layers");
  s.layers = layers.unsigned_integer();
  if (s.layers < 1) layers.fail("must be >= 1, got 0");
  s.radius = read_radius_range(f.member("radius"));
  if (const auto v = f.optional_member("gap")) s.gap = v->non_negative_number();
  if (const auto v = f.optional_member("seed")) s.seed = v->unsigned_integer();

  const SphereLattice lattice = s.lattice();
  checked_lattice_size(lattice, max_field, layers);
  check_inside(f, "the bed", lattice.min, lattice.max, container);
  check_disjoint(f, lattice.min, lattice.max, boxes);
  return s;
}

SphereListSource read_spheres(const JsonField& f, const std::optional<Container>& container) {
  f.expect_object({"kind", "material", "spheres"});
  SphereListSource s;
  for (const JsonField& item : f.member("spheres").elements()) {
    item.expect_object({"position", "radius", "velocity", "angular_velocity"});
    ExplicitSphere sphere;
    const JsonField position = item.member("position");
    sphere.position = position.vec3();
    sphere.radius = item.member("radius").positive_number();
    if (const auto v = item.optional_member("velocity")) sphere.velocity = v->vec3();
    if (const auto v = item.optional_member("angular_velocity")) sphere.angular_velocity = v->vec3();
    check_sphere_inside(position, sphere.position, sphere.radius, container);
    s.spheres.push_back(sphere);
  }
  return s;
}

CompoundBody read_compound(const JsonField& item, const std::optional<Container>& container) {
  item.expect_object({"position", "orientation", "velocity", "angular_velocity", "mass", "inertia", "spheres"});
  CompoundBody b;
  b.position = item.member("position").vec3();
  if (const auto v = item.optional_member("orientation")) b.orientation = v->unit_quaternion();
  if (const auto v = item.optional_member("velocity")) b.velocity = v->vec3();
  if (const auto v = item.optional_member("angular_velocity")) b.angular_velocity = v->vec3();
  b.mass = item.member("mass").positive_number();
  const JsonField inertia = item.member("inertia");
  b.inertia = inertia.vec3();
  if (!(b.inertia.x > 0 && b.inertia.y > 0 && b.inertia.z > 0))
    inertia.fail("must all be > 0, got [" + number_to_string(b.inertia.x) + ", " + number_to_string(b.inertia.y) +
                 ", " + number_to_string(b.inertia.z) + "]");
  const JsonField spheres = item.member("spheres");
  for (const JsonField& member : spheres.elements()) {
    member.expect_object({"offset", "radius"});
    CompoundBody::Member m;
    m.offset = member.member("offset").vec3();
    m.radius = member.member("radius").positive_number();
    check_sphere_inside(member, b.position + rotate(b.orientation, m.offset), m.radius, container);
    b.spheres.push_back(m);
  }
  if (b.spheres.empty()) spheres.fail("a compound needs at least one sphere");
  return b;
}

CompoundListSource read_compounds(const JsonField& f, const std::optional<Container>& container) {
  f.expect_object({"kind", "material", "bodies"});
  CompoundListSource s;
  for (const JsonField& item : f.member("bodies").elements()) s.bodies.push_back(read_compound(item, container));
  return s;
}

}  // namespace

std::vector<ParticleSource> read_particles(const JsonField& list, const Material& material,
                                           const std::optional<Container>& container) {
  std::vector<ParticleSource> out;
  std::vector<FilledBox> boxes;
  for (const JsonField& entry : list.elements()) {
    if (!entry.json().is_object()) entry.expect_object({});  // says "expected an object"
    const std::string kind = entry.member("kind").one_of({"lattice", "layers", "spheres", "compounds"});
    ParticleSource source;
    if (kind == "lattice") source.generator = read_lattice(entry, container, boxes);
    else if (kind == "layers") source.generator = read_layers(entry, container, boxes);
    else if (kind == "spheres") source.generator = read_spheres(entry, container);
    else source.generator = read_compounds(entry, container);
    source.material = material;
    if (const auto m = entry.optional_member("material")) source.material = read_material(*m, material);
    out.push_back(std::move(source));
  }
  return out;
}

}  // namespace trackcosim::cosim::terrain_config_detail
