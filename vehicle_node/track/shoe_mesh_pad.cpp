#include "vehicle_node/track/shoe_mesh_pad.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "io/config_error.h"
#include "geometry/decomposition_options_json.h"
#include "geometry/mesh_check.h"
#include "io/number_text.h"

namespace trackcosim::vehicle {
namespace {

using io::JsonField;
using io::number_to_string;

/// The mesh's inertia about the shoe frame's origin, where the engine puts the shoe's mass:
/// I_o = I_c + m (|c|^2 1 - c c^T). The engine takes principal moments in the body axes, so the
/// products of inertia must be negligible (a shoe symmetric about x = 0 and y = 0 has none).
Vec3 inertia_about_origin(const geometry::MassProperties& p, const JsonField& density) {
  const Vec3 c = p.centre_of_mass;
  const double cc[3] = {c.x, c.y, c.z};
  double I[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) I[i][j] = p.inertia[i][j] + p.mass * ((i == j ? dot(c, c) : 0.0) - cc[i] * cc[j]);
  const double largest = std::max({I[0][0], I[1][1], I[2][2]});
  const double product = std::max({std::abs(I[0][1]), std::abs(I[0][2]), std::abs(I[1][2])});
  if (product > 0.01 * largest)
    density.fail("the mesh's inertia about the shoe frame's origin has products of inertia up to " +
                 number_to_string(product) + " kg m^2 against moments up to " + number_to_string(largest) +
                 ": the shoe's principal axes are not the shoe frame's; give the shoe's \"mass\" and \"inertia\" "
                 "instead of a density");
  return {I[0][0], I[1][1], I[2][2]};
}

}  // namespace

MeshPad read_mesh_pad(const JsonField& pad, const std::filesystem::path& config_folder) {
  pad.expect_object({"mesh", "f", "refined_f", "refine_levels", "sharp_angle", "max_protrusion", "merge", "density"});
  MeshPad out;
  const JsonField mesh_field = pad.member("mesh");
  const std::string name = mesh_field.string();
  if (name.empty()) mesh_field.fail("must name an .obj or .stl file");
  out.file = config_folder / name;
  out.options = geometry::read_decomposition_options(pad);

  geometry::TriangleMesh mesh;
  geometry::Decomposition d;
  try {
    mesh = geometry::read_solid_mesh(out.file);
    d = geometry::decompose_into_spheres(mesh, {0, 0, 0}, out.options);
  } catch (const io::ConfigError& e) {
    mesh_field.fail(e.what());
  }
  for (const geometry::Sphere& s : d.spheres) out.spheres.push_back({s.centre, s.radius});
  out.top = -std::numeric_limits<double>::infinity();
  for (const Vec3& v : mesh.vertices) out.top = std::max(out.top, double(v.z));

  if (const auto density = pad.optional_member("density")) {
    const geometry::MassProperties p = geometry::mass_properties(mesh, density->positive_number());
    out.mass = p.mass;
    out.inertia = inertia_about_origin(p, *density);
    out.centre_of_mass = p.centre_of_mass;
  }
  out.mesh = std::make_shared<const geometry::TriangleMesh>(std::move(mesh));
  return out;
}

}  // namespace trackcosim::vehicle
