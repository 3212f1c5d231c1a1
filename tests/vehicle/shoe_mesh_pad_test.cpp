// Shoe pads from meshes (issue 21, docs/meshes.md "Shoe pads from meshes"): the shipped shoe with
// grousers (configs/vehicles/meshes/shoe_grousers.obj, used by m113_grousers.json) as a template,
// resting on the rigid plane, its mass from a density, and bad meshes refused by config key.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include <gtest/gtest.h>

#include "io/config_error.h"
#include "geometry/mesh_file.h"
#include "geometry/sphere_fit_report.h"
#include "mbd_test_util.h"
#include "track_test_util.h"

namespace trackcosim::vehicle {
namespace {

const std::string kGrousers = "m113_grousers";

std::string config_text(const std::string& name) {
  std::ifstream in(test::shipped_config(name));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The shipped grouser config with each `from` replaced by its `to` (each must occur once), read
/// as if it were the shipped file (so that its mesh path resolves against configs/vehicles/).
RunConfig edited(const std::vector<std::pair<std::string, std::string>>& edits) {
  std::string text = config_text(kGrousers);
  for (const auto& [from, to] : edits) {
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    EXPECT_EQ(text.find(from, at + 1), std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
  }
  return parse_run_config(text, test::shipped_config(kGrousers));
}

std::string error_of(const std::vector<std::pair<std::string, std::string>>& edits) {
  try {
    (void)edited(edits);
  } catch (const io::ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

const std::string kMeshKey = "\"mesh\": \"meshes/shoe_grousers.obj\"";
const std::string kMassKeys = "\"mass\": 18.02, \"inertia\": [0.22, 0.04, 0.25],";

/// A file in a fresh folder under the system's temporary folder.
std::filesystem::path temp_file(const std::string& name, const std::string& text) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "trackcosim_shoe_mesh_pad_test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / name) << text;
  return dir / name;
}

double lowest_vertex_z(const geometry::TriangleMesh& mesh) {
  double z = 1e30;
  for (const Vec3& v : mesh.vertices) z = std::min(z, double(v.z));
  return z;
}

TEST(ShoeMeshPad, TheShippedShoeIsItsMeshDecomposedInTheShoeFrame) {
  const RunConfig c = load_run_config(test::shipped_config(kGrousers));
  const ShoeTemplate& s = c.vehicle.track.shoes;
  ASSERT_TRUE(s.pad_mesh);
  EXPECT_FALSE(s.pad);
  // The mesh's spheres and the guide horn listed after them, the same for wheels and terrain.
  EXPECT_GT(s.spheres.size(), 20u);
  EXPECT_EQ(s.terrain_spheres.size(), s.spheres.size());
  EXPECT_DOUBLE_EQ(s.spheres.back().offset.z, 0.06);
  // Pin offset: the mesh's highest point, the plate's inner face, as the M113's box pad.
  EXPECT_DOUBLE_EQ(s.pin_offset, 0.03);
  // No density: the template's mass and inertia stand; one shoe more per track than m113.json,
  // since the spheres' bulge on the wheel side lengthens the loop (the config's header).
  EXPECT_DOUBLE_EQ(s.mass, 18.02);
  EXPECT_EQ(s.count, 64u);
  const RunConfig m113 = load_run_config(test::shipped_config("m113"));
  EXPECT_NEAR(c.vehicle.total_mass(), m113.vehicle.total_mass() + 2 * 18.02, 1e-9);
  // The grousers are what reaches lowest, 45 mm under the pins.
  EXPECT_NEAR(lowest_vertex_z(*s.pad_mesh), -0.045, 1e-12);
  std::printf("shipped shoe: %zu spheres from %zu triangles\n", s.spheres.size() - 1, s.pad_mesh->triangles.size());
}

// A single shoe from the mesh, dropped flat from 5 mm onto the engine's rigid plane z = 0 (h = 1 ms,
// 1 s), comes to rest on its grousers. Its reference point (the shoe frame's origin, where the
// engine puts its mass) then stands at
//   z_spheres = -min_i (c_i,z - r_i)       the sphere set's lowest point, exactly, and
//   z_mesh    = -min_v (v_z)               the mesh's lowest vertex (-0.045 m),
// with z_spheres - z_mesh in [0, protrusion x part size] (the spheres bulge out of the mesh by at
// most the fit report's protrusion). The report samples each sphere's cap and so gives a lower
// bound of the true protrusion; at its default 64 samples per sphere it reads 11.7 mm where the
// lowest sphere lies 12.1 mm below the grousers, so the test samples 1024 (12.07 mm, 2 s).
// Tolerance: 0.2 mm for the contact solver (compliance 1e-9 m/N and the relative floor under
// 18 kg spread over the tip spheres, SPOOK's residual drift) and that sampling; the solver's part
// measured below 1e-7 m.
TEST(ShoeMeshPad, AShoeRestsOnAPlaneAtTheHeightItsMeshPredicts) {
  const RunConfig c = load_run_config(test::shipped_config(kGrousers));
  const ShoeTemplate& s = c.vehicle.track.shoes;
  double lowest_sphere = 1e30;
  for (const LocalSphere& sp : s.spheres) lowest_sphere = std::min(lowest_sphere, sp.offset.z - sp.radius);
  const double z_spheres = -lowest_sphere, z_mesh = -lowest_vertex_z(*s.pad_mesh);
  std::vector<geometry::Sphere> pad;
  for (std::size_t i = 0; i + 1 < s.spheres.size(); ++i) pad.push_back({s.spheres[i].offset, s.spheres[i].radius});
  geometry::FitSampling sampling;
  sampling.cap_samples = 1024;
  const geometry::FitReport fit = geometry::measure_fit(*s.pad_mesh, pad, {0, 0, 0}, sampling);
  const double bulge = fit.protrusion * fit.part_size;

  MultibodySystem sys;
  sys.set_ground(std::make_shared<FlatGround>(0.0), c.vehicle.contact.ground_friction);
  BodyDesc d = test::body("shoe", s.mass, s.inertia, {0, 0, z_spheres + 0.005});
  const BodyId shoe = sys.add_body(d);
  sys.add_contact_spheres(shoe, s.spheres, 1);
  for (int i = 0; i < 1000; ++i) sys.step(1e-3);
  const BodyState st = sys.state(shoe);
  std::printf("rest height %.7f m; spheres predict %.7f, mesh %.7f (fit protrusion %.4g m, %zu spheres)\n",
              st.position.z, z_spheres, z_mesh, bulge, pad.size());

  constexpr double kSolver = 2e-4;
  EXPECT_NEAR(st.position.z, z_spheres, kSolver);
  EXPECT_GE(st.position.z, z_mesh - kSolver);
  EXPECT_LE(st.position.z, z_mesh + bulge + kSolver);
  EXPECT_GE(z_spheres, z_mesh);
  EXPECT_LT(length(st.velocity), 1e-3);
  EXPECT_NEAR(sys.ground_contact_force(shoe).z, s.mass * test::kG, 0.01 * s.mass * test::kG);
}

// With "density" the mesh gives mass and inertia: the shipped shoe is a 0.14 x 0.38 x 0.05 m plate
// (z from -0.02 to 0.03) and two 0.03 x 0.38 x 0.025 m grousers (x centres +-0.04, z from -0.045 to
// -0.02). Mass = density x volume, exact for a polyhedron; inertia about the shoe frame's origin =
// the sum over the three boxes of m (a^2 + b^2) / 12 plus m d^2 of their centres (parallel axes),
// to 1e-9 relative (rounding only).
TEST(ShoeMeshPad, ADensityGivesTheMassAndInertiaAboutThePins) {
  const double rho = 7800;
  const RunConfig c = edited({{kMassKeys, ""}, {kMeshKey, kMeshKey + ", \"density\": 7800"}});
  const ShoeTemplate& s = c.vehicle.track.shoes;
  struct Box {
    Vec3 size, centre;
  };
  const Box boxes[] = {{{0.14, 0.38, 0.05}, {0, 0, 0.005}},
                       {{0.03, 0.38, 0.025}, {-0.04, 0, -0.0325}},
                       {{0.03, 0.38, 0.025}, {0.04, 0, -0.0325}}};
  double mass = 0;
  Vec3 inertia{0, 0, 0};
  for (const Box& b : boxes) {
    const double m = rho * b.size.x * b.size.y * b.size.z;
    const Vec3 a = b.size, d = b.centre;
    mass += m;
    inertia = inertia + Vec3{m * (a.y * a.y + a.z * a.z) / 12 + m * (d.y * d.y + d.z * d.z),
                             m * (a.x * a.x + a.z * a.z) / 12 + m * (d.x * d.x + d.z * d.z),
                             m * (a.x * a.x + a.y * a.y) / 12 + m * (d.x * d.x + d.y * d.y)};
  }
  EXPECT_NEAR(s.mass, mass, 1e-9 * mass);
  EXPECT_NEAR(s.inertia.x, inertia.x, 1e-9 * inertia.x);
  EXPECT_NEAR(s.inertia.y, inertia.y, 1e-9 * inertia.y);
  EXPECT_NEAR(s.inertia.z, inertia.z, 1e-9 * inertia.z);
  std::printf("steel shoe: %.4f kg, inertia about the pins' midpoint [%.5f, %.5f, %.5f] kg m^2\n", s.mass,
              s.inertia.x, s.inertia.y, s.inertia.z);
  // Both a density and the template's mass: which one is meant is not for the reader to guess.
  EXPECT_EQ(error_of({{kMeshKey, kMeshKey + ", \"density\": 7800"}}).rfind(
                test::shipped_config(kGrousers) + ": track.shoes.mass: must not be given with pad.density", 0),
            0u);
}

// A mesh that does not bound a solid is refused at the config key, with the geometry/ check's message;
// so are a missing file and decomposition options out of range.
TEST(ShoeMeshPad, BadMeshesAndOptionsAreRefusedNamingTheKey) {
  const std::string where = test::shipped_config(kGrousers) + ": track.shoes.pad";
  // A tetrahedron with one face missing: three edges belong to one face only.
  const std::filesystem::path open =
      temp_file("open.obj", "v 0 0 0\nv 0.1 0 0\nv 0 0.1 0\nv 0 0 0.1\nf 1 3 2\nf 1 2 4\nf 2 3 4\n");
  const std::string why = error_of({{kMeshKey, "\"mesh\": \"" + open.string() + "\""}});
  EXPECT_EQ(why, where + ".mesh: " + open.string() + ": open mesh: 3 edges belong to one face only (first: vertices 0-2)")
      << why;
  const std::string missing = error_of({{kMeshKey, "\"mesh\": \"meshes/no_such_shoe.obj\""}});
  EXPECT_EQ(missing.rfind(where + ".mesh: " + (std::filesystem::path(test::shipped_config(kGrousers)).parent_path() /
                                               "meshes/no_such_shoe.obj").string() + ": cannot open",
                          0),
            0u)
      << missing;
  EXPECT_EQ(error_of({{"\"f\": 0.5", "\"f\": 1"}}), where + ".f: must be in [0, 1), got 1");
  EXPECT_EQ(error_of({{"\"refine_levels\": 0", "\"refine_levels\": 9"}}), where + ".refine_levels: must be 0 to 8, got 9");
  const std::string box = error_of({{kMeshKey, kMeshKey + ", \"length\": 0.1"}});
  EXPECT_EQ(box.rfind(where + ".length: unknown key", 0), 0u) << box;
}

}  // namespace
}  // namespace trackcosim::vehicle
