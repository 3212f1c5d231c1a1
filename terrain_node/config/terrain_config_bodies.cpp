// The `bodies` list of a terrain config (docs/terrain-config.md, "bodies"): rigid sphere sets
// placed by hand (rocks, tools, an anchor), fixed, free or axial, each with an optional load
// schedule. A shape comes from a surface mesh (read, checked and decomposed here, as
// tools/mesh_spheres does), from a mesh_spheres output file, or inline. Whatever the source, the
// body frame is the shape's principal frame: mass properties are principal moments, the spheres
// are turned into that frame, and the body's orientation is the config's orientation after the
// principal axes' rotation, so that `orientation` turns the shape as it was drawn.

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "geometry/decomposition_options_json.h"
#include "geometry/mesh_check.h"
#include "geometry/mesh_file.h"
#include "geometry/mesh_mass.h"
#include "io/number_text.h"
#include "geometry/sphere_decomposition.h"
#include "terrain_node/config/terrain_config_read.h"

namespace trackcosim::terrain {

BodyLoad SceneBody::load_at(real t) const {
  BodyLoad now;
  for (const BodyLoad& l : loads)
    if (l.from <= t) now = l;
  return now;
}

const char* motion_name(gpu::Motion motion) {
  switch (motion) {
    case gpu::Motion::Fixed: return "fixed";
    case gpu::Motion::Axial: return "axial";
    default: return "free";
  }
}

namespace terrain_config_detail {
namespace {

std::string list_text(Vec3 v) {
  std::string text(1, '[');  // appended, not "[" + ...: GCC 12 warns (-Wrestrict) on the latter
  text += io::number_to_string(v.x) + ", " + io::number_to_string(v.y) + ", " + io::number_to_string(v.z) + "]";
  return text;
}

/// The rotation whose columns are the principal axes a1, a2, a3 (a right-handed orthonormal set)
/// as a unit quaternion (Shepperd's method: divide by the largest of the four candidates).
Quat quaternion_of_axes(const std::array<Vec3, 3>& a) {
  const real m00 = a[0].x, m11 = a[1].y, m22 = a[2].z;
  const real m01 = a[1].x, m10 = a[0].y, m02 = a[2].x, m20 = a[0].z, m12 = a[2].y, m21 = a[1].z;
  const real trace = m00 + m11 + m22;
  Quat q;
  if (trace > 0) {
    const real s = 2 * std::sqrt(1 + trace);
    q = {s / 4, (m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s};
  } else if (m00 > m11 && m00 > m22) {
    const real s = 2 * std::sqrt(1 + m00 - m11 - m22);
    q = {(m21 - m12) / s, s / 4, (m01 + m10) / s, (m02 + m20) / s};
  } else if (m11 > m22) {
    const real s = 2 * std::sqrt(1 + m11 - m00 - m22);
    q = {(m02 - m20) / s, (m01 + m10) / s, s / 4, (m12 + m21) / s};
  } else {
    const real s = 2 * std::sqrt(1 + m22 - m00 - m11);
    q = {(m10 - m01) / s, (m02 + m20) / s, (m12 + m21) / s, s / 4};
  }
  const real n = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  return {q.w / n, q.x / n, q.y / n, q.z / n};
}

/// Principal axes must be an orthonormal right-handed set (mesh_spheres writes them so).
void check_axes(const io::JsonField& field, const std::array<Vec3, 3>& a) {
  constexpr real kTolerance = 1e-6;
  for (int i = 0; i < 3; ++i) {
    if (std::abs(length(a[i]) - 1) > kTolerance)
      field.fail("axis " + std::to_string(i + 1) + " " + list_text(a[i]) + " is not a unit vector");
    for (int j = i + 1; j < 3; ++j)
      if (std::abs(dot(a[i], a[j])) > kTolerance)
        field.fail("axes " + std::to_string(i + 1) + " and " + std::to_string(j + 1) + " are not perpendicular");
  }
  if (dot(cross(a[0], a[1]), a[2]) < 0) field.fail("the axes must form a right-handed set (a1 x a2 = a3)");
}

Vec3 positive_moments(const io::JsonField& field) {
  const Vec3 v = field.vec3();
  if (!(v.x > 0 && v.y > 0 && v.z > 0)) field.fail("must all be > 0, got " + list_text(v));
  return v;
}

/// [[x, y, z, r], ...] relative to the centre of mass, turned from the shape's frame into the
/// principal frame.
std::vector<CompoundBody::Member> read_sphere_list(const io::JsonField& list, Quat principal) {
  std::vector<CompoundBody::Member> out;
  for (const io::JsonField& item : list.elements()) {
    item.expect_array_of_numbers(4);
    const std::vector<io::JsonField> e = item.elements();
    const Vec3 centre{e[0].number(), e[1].number(), e[2].number()};
    out.push_back({rotate_inverse(principal, centre), read_radius(e[3])});
  }
  if (out.empty()) list.fail("a body needs at least one sphere");
  return out;
}

void read_mesh_shape(const io::JsonField& f, const ParticleContext& context, BodyShape& shape) {
  f.expect_object({"mesh", "density", "f", "refined_f", "refine_levels", "sharp_angle", "max_protrusion", "merge"});
  shape.source = BodyShape::Source::Mesh;
  const io::JsonField mesh_field = f.member("mesh");
  shape.file = context.folder / mesh_field.string();
  shape.density = number_in_range(f.member("density"), kMinDensity, kMaxDensity, "kg/m^3");
  shape.decomposition = geometry::read_decomposition_options(f);
  // The io/ messages name the file and what is wrong; the key path says which entry.
  geometry::TriangleMesh mesh;
  geometry::MassProperties mass;
  geometry::Decomposition spheres;
  try {
    mesh = geometry::read_solid_mesh(shape.file);
    mass = geometry::mass_properties(mesh, shape.density);
    spheres = geometry::decompose_into_spheres(mesh, mass.centre_of_mass, shape.decomposition);
  } catch (const io::ConfigError& e) {
    mesh_field.fail(e.what());
  }
  if (!(mass.mass >= kMinBodyMass && mass.mass <= kMaxBedMass))
    f.fail("the mesh's mass at this density is " + io::number_to_string(mass.mass) + " kg, outside [" +
           io::number_to_string(kMinBodyMass) + ", " + io::number_to_string(kMaxBedMass) + "] kg (mesh units are metres)");
  shape.mass = mass.mass;
  shape.inertia = {mass.principal_moments[0], mass.principal_moments[1], mass.principal_moments[2]};
  shape.principal = quaternion_of_axes(mass.principal_axes);
  for (const geometry::Sphere& s : spheres.spheres) {
    if (!(s.radius >= kMinRadius && s.radius <= kMaxRadius))
      mesh_field.fail("the decomposition made a sphere of radius " + io::number_to_string(s.radius) + " m, outside [" +
                      io::number_to_string(kMinRadius) + ", " + io::number_to_string(kMaxRadius) +
                      "] m (mesh units are metres; refine_levels or f change the sizes)");
    shape.spheres.push_back({rotate_inverse(shape.principal, s.centre), s.radius});
  }
}

/// The output of tools/mesh_spheres (docs/meshes.md, "Output").
void read_spheres_file(const io::JsonField& f, const ParticleContext& context, BodyShape& shape) {
  f.expect_object({"spheres_file"});
  shape.source = BodyShape::Source::SpheresFile;
  const io::JsonField file_field = f.member("spheres_file");
  shape.file = context.folder / file_field.string();
  try {
    const nlohmann::json document = io::load_json_document(shape.file);
    const io::JsonField root(document, shape.file.string());
    root.expect_object({"mass", "volume", "centre_of_mass", "inertia", "principal_moments", "principal_axes", "spheres",
                        "options", "fit"});
    shape.mass = number_in_range(root.member("mass"), kMinBodyMass, kMaxBedMass, "kg");
    shape.inertia = positive_moments(root.member("principal_moments"));
    const io::JsonField axes_field = root.member("principal_axes");
    const std::vector<io::JsonField> axes = axes_field.elements();
    if (axes.size() != 3) axes_field.fail("expected 3 axes, got " + std::to_string(axes.size()));
    const std::array<Vec3, 3> a{axes[0].vec3(), axes[1].vec3(), axes[2].vec3()};
    check_axes(axes_field, a);
    shape.principal = quaternion_of_axes(a);
    shape.spheres = read_sphere_list(root.member("spheres"), shape.principal);
  } catch (const io::ConfigError& e) {
    file_field.fail(e.what());
  }
}

void read_inline_shape(const io::JsonField& f, BodyShape& shape) {
  f.expect_object({"spheres", "mass", "inertia"});
  shape.source = BodyShape::Source::Inline;
  shape.mass = number_in_range(f.member("mass"), kMinBodyMass, kMaxBedMass, "kg");
  shape.inertia = positive_moments(f.member("inertia"));
  shape.spheres = read_sphere_list(f.member("spheres"), shape.principal);
}

BodyShape read_shape_entry(const io::JsonField& f, const ParticleContext& context) {
  if (!f.json().is_object()) f.expect_object({});
  const int given = int(f.json().contains("mesh")) + int(f.json().contains("spheres_file")) +
                    int(f.json().contains("spheres"));
  if (given != 1)
    f.fail("needs exactly one of \"mesh\" (with \"density\"), \"spheres_file\" or \"spheres\" (with \"mass\" and "
           "\"inertia\"), got " + std::to_string(given));
  BodyShape shape;
  if (f.json().contains("mesh")) read_mesh_shape(f, context, shape);
  else if (f.json().contains("spheres_file")) read_spheres_file(f, context, shape);
  else read_inline_shape(f, shape);
  return shape;
}

std::vector<BodyLoad> read_loads(const io::JsonField& list) {
  std::vector<BodyLoad> out;
  for (const io::JsonField& item : list.elements()) {
    item.expect_object({"from", "force", "torque"});
    BodyLoad l;
    const io::JsonField from = item.member("from");
    l.from = from.non_negative_number();
    if (!out.empty() && !(l.from > out.back().from))
      from.fail("must be later than the previous load's " + io::number_to_string(out.back().from) +
                " s (loads are listed in time order)");
    if (const auto v = item.optional_member("force")) l.force = v->vec3();
    if (const auto v = item.optional_member("torque")) l.torque = v->vec3();
    out.push_back(l);
  }
  return out;
}

SceneBody read_body(const io::JsonField& f, const ParticleContext& context) {
  if (!f.json().is_object()) f.expect_object({});
  f.expect_object({"name", "shape", "mass", "position", "orientation", "motion", "friction", "velocity",
                   "angular_velocity", "loads"});
  SceneBody b;
  if (const auto v = f.optional_member("name")) b.name = v->string();
  b.shape = read_shape_entry(f.member("shape"), context);
  if (const auto v = f.optional_member("mass")) b.mass_override = number_in_range(*v, kMinBodyMass, kMaxBedMass, "kg");
  const io::JsonField position = f.member("position");
  b.position = position.vec3();
  check_inside(position, "the centre of mass", b.position, b.position, context.container);
  if (const auto v = f.optional_member("orientation")) b.orientation = v->unit_quaternion();
  if (const auto v = f.optional_member("motion")) {
    const std::string m = v->one_of({"free", "fixed", "axial"});
    b.motion = m == "fixed" ? gpu::Motion::Fixed : m == "axial" ? gpu::Motion::Axial : gpu::Motion::Dynamic;
  }
  b.friction = context.material.friction;
  if (const auto v = f.optional_member("friction")) b.friction = v->non_negative_number();
  const std::optional<io::JsonField> velocity = f.optional_member("velocity");
  const std::optional<io::JsonField> angular = f.optional_member("angular_velocity");
  if (velocity) b.velocity = velocity->vec3();
  if (angular) b.angular_velocity = angular->vec3();
  if (const auto v = f.optional_member("loads")) b.loads = read_loads(*v);
  if (b.motion == gpu::Motion::Fixed) {
    if (velocity || angular) (velocity ? *velocity : *angular).fail("a fixed body does not move (motion \"fixed\")");
    if (!b.loads.empty()) f.member("loads").fail("a fixed body takes no loads (motion \"fixed\")");
  }
  if (b.motion == gpu::Motion::Axial) {
    // Velocities outside the axis would be dropped without a word; say so instead.
    if (velocity && (b.velocity.x != 0 || b.velocity.y != 0))
      velocity->fail("an axial body moves along z only: must be [0, 0, vz], got " + list_text(b.velocity));
    if (angular && (b.angular_velocity.x != 0 || b.angular_velocity.y != 0))
      angular->fail("an axial body turns about z only: must be [0, 0, wz], got " + list_text(b.angular_velocity));
  }
  return b;
}

}  // namespace

BodyShape read_body_shape(const io::JsonField& field, const ParticleContext& context) {
  return read_shape_entry(field, context);
}

RocksSource read_rocks(const io::JsonField& f, const ParticleContext& context, std::vector<FilledBox>& boxes) {
  f.expect_object({"kind", "material", "shape", "mass", "min", "max", "gap", "seed"});
  RocksSource r;
  r.shape = read_shape_entry(f.member("shape"), context);
  if (const auto v = f.optional_member("mass")) r.mass_override = number_in_range(*v, kMinBodyMass, kMaxBedMass, "kg");
  r.min = f.member("min").vec3();
  const io::JsonField max_field = f.member("max");
  r.max = max_field.vec3();
  for (int a = 0; a < 3; ++a)
    if (!(axis(r.max, a) > axis(r.min, a)))
      max_field.fail(std::string("must be > min along ") + "xyz"[a] + ", got " + io::number_to_string(axis(r.max, a)) +
                     " <= " + io::number_to_string(axis(r.min, a)));
  if (const auto v = f.optional_member("gap")) r.gap = v->non_negative_number();
  if (const auto v = f.optional_member("seed")) r.seed = v->unsigned_integer();
  check_inside(max_field, "the box", r.min, r.max, context.container);
  check_disjoint(f, r.min, r.max, boxes);
  if (r.count() == 0)
    max_field.fail("the box holds no cell of edge " + io::number_to_string(r.cell()) +
                   " m (2 x the shape's reach " + io::number_to_string(r.reach()) + " m x (1 + gap)) along some axis");
  return r;
}

std::vector<SceneBody> read_bodies(const io::JsonField& list, const ParticleContext& context) {
  std::vector<SceneBody> out;
  for (const io::JsonField& item : list.elements()) out.push_back(read_body(item, context));
  return out;
}

}  // namespace terrain_config_detail
}  // namespace trackcosim::terrain
