// mesh_spheres: a part's surface mesh (OBJ or STL) to its sphere set, for the sphere-only
// collision pipeline (docs/meshes.md). Reads the mesh, refuses it if it does not bound a solid,
// computes mass, centre of mass and inertia for the density, decomposes the surface into spheres
// relative to the centre of mass (geometry/sphere_decomposition.h), measures the fit and writes
//   {"mass", "volume", "centre_of_mass", "inertia", "principal_moments", "principal_axes",
//    "spheres": [[x, y, z, r], ...], "options": {...}, "fit": {...}}
// Prints the report. Exit status (the project's convention, docs/testing.md): 0 written; 1 the
// output could not be written; 2 bad input: a refused mesh, a missing or bad option (a NaN or
// infinite number included), each one line `mesh_spheres: error: ...`, the usage after a
// command-line error.

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "io/config_error.h"
#include "geometry/mesh_check.h"
#include "geometry/mesh_file.h"
#include "geometry/mesh_mass.h"
#include "io/number_option.h"
#include "io/output_file.h"
#include "geometry/sphere_decomposition.h"
#include "geometry/sphere_fit_report.h"

namespace {

using namespace trackcosim;

constexpr int kExitOutputFailed = 1;
constexpr int kExitBadInput = 2;

constexpr const char* kUsage =
    "usage: mesh_spheres MESH.obj|MESH.stl --density KG_PER_M3 [-o spheres.json] [--f R] [--refined-f R] "
    "[--sharp-angle DEG] [--refine-levels N] [--max-protrusion FRACTION] [--merge FRACTION] (mesh_spheres --help tells more)";

nlohmann::json to_json(Vec3 v) { return {v.x, v.y, v.z}; }

nlohmann::json sphere_set_json(const geometry::MassProperties& p, const geometry::Decomposition& d, const geometry::FitReport& fit,
                               const geometry::DecompositionOptions& o) {
  nlohmann::json j;
  j["mass"] = p.mass;
  j["volume"] = p.volume;
  j["centre_of_mass"] = to_json(p.centre_of_mass);
  j["inertia"] = p.inertia;
  j["principal_moments"] = p.principal_moments;
  j["principal_axes"] = {to_json(p.principal_axes[0]), to_json(p.principal_axes[1]), to_json(p.principal_axes[2])};
  j["spheres"] = nlohmann::json::array();
  for (const geometry::Sphere& s : d.spheres) j["spheres"].push_back({s.centre.x, s.centre.y, s.centre.z, s.radius});
  j["options"] = {{"f", o.f}, {"refined_f", o.refined_f}, {"sharp_angle_deg", o.sharp_angle_deg},
                  {"refine_levels", o.refine_levels}, {"max_protrusion", o.max_protrusion},
                  {"merge_tolerance", o.merge_tolerance}};
  j["fit"] = {{"spheres", fit.spheres},       {"sharp_faces", d.sharp_faces},     {"merged", d.merged},
              {"part_size", fit.part_size},   {"protrusion", fit.protrusion},     {"gap", fit.gap},
              {"boundary_samples", fit.boundary_samples}, {"surface_samples", fit.surface_samples}};
  return j;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Decompose a part's surface mesh into spheres relative to its centre of mass (docs/meshes.md)"};
  std::string mesh_file, output = "spheres.json";
  double density = 0;
  geometry::DecompositionOptions options;
  geometry::FitSampling sampling;
  CLI::Option* mesh_option =
      app.add_option("mesh", mesh_file, "closed surface mesh, .obj or .stl")->required()->type_name("MESH");
  app.add_option("--density", density, "kg/m^3")->required()->check(io::finite_number(io::NumberSign::AboveZero));
  app.add_option("-o,--output", output, "sphere set JSON")->capture_default_str();
  // The ranges are the decomposition's own (geometry/sphere_decomposition.h); finiteness is checked here.
  app.add_option("--f", options.f, "centre ratio d/r on original faces, [0, 1)")
      ->check(io::finite_number())
      ->capture_default_str();
  app.add_option("--refined-f", options.refined_f, "centre ratio on refined faces, [0, 1)")
      ->check(io::finite_number())
      ->capture_default_str();
  app.add_option("--sharp-angle", options.sharp_angle_deg, "degrees between normals that make an edge sharp")
      ->check(io::finite_number())
      ->capture_default_str();
  app.add_option("--refine-levels", options.refine_levels, "splits of faces at sharp edges")->capture_default_str();
  app.add_option("--max-protrusion", options.max_protrusion,
                 "split every face until each sphere bulges at most this fraction of the part's size "
                 "(0: the fixed refinement alone); the fit report says what it reached")
      ->check(io::finite_number(io::NumberSign::AtLeastZero))
      ->capture_default_str();
  app.add_option("--merge", options.merge_tolerance, "drop spheres inside others within this fraction of the part's size")
      ->check(io::finite_number(io::NumberSign::AtLeastZero))
      ->capture_default_str();
  app.add_option("--cap-samples", sampling.cap_samples, "fit report: points per sphere")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--face-steps", sampling.face_steps, "fit report: grid steps per face side")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    // A bad value is one line naming the option; a missing or unknown word also gets the usage.
    if (dynamic_cast<const CLI::ValidationError*>(&e) != nullptr || dynamic_cast<const CLI::ConversionError*>(&e) != nullptr)
      std::fprintf(stderr, "mesh_spheres: error: %s\n", e.what());
    else if (mesh_option->count() == 0)
      std::fprintf(stderr, "mesh_spheres: error: a mesh file is required: the part's closed surface, .obj or .stl, "
                           "as the first word\n%s\n", kUsage);
    else
      std::fprintf(stderr, "mesh_spheres: error: %s\n%s\n", e.what(), kUsage);
    return kExitBadInput;
  }

  try {
    geometry::TriangleMesh mesh = geometry::read_mesh_file(mesh_file);
    geometry::check_mesh(mesh, mesh_file);
    const bool flipped = geometry::orient_outward(mesh);
    const geometry::MassProperties mass = geometry::mass_properties(mesh, density);
    const geometry::Decomposition spheres = geometry::decompose_into_spheres(mesh, mass.centre_of_mass, options);
    const geometry::FitReport fit = geometry::measure_fit(mesh, spheres.spheres, mass.centre_of_mass, sampling);
    const nlohmann::json j = sphere_set_json(mass, spheres, fit, options);
    io::write_output_file(output, [&](std::ostream& out) { out << j.dump(1) << '\n'; });

    std::printf("%s: %zu faces%s, volume %.6g m^3, mass %.6g kg\n", mesh_file.c_str(), mesh.triangles.size(),
                flipped ? " (inward, turned out)" : "", mass.volume, mass.mass);
    std::printf("centre of mass (%.6g, %.6g, %.6g) m; principal moments %.6g %.6g %.6g kg m^2\n",
                mass.centre_of_mass.x, mass.centre_of_mass.y, mass.centre_of_mass.z, mass.principal_moments[0],
                mass.principal_moments[1], mass.principal_moments[2]);
    std::printf("%zu spheres (%zu sharp faces refined, %zu merged); part size %.6g m\n", fit.spheres,
                spheres.sharp_faces, spheres.merged, fit.part_size);
    std::printf("fit: protrusion %.3g%%, gap %.3g%% of the part's size -> %s\n", 100 * fit.protrusion, 100 * fit.gap,
                output.c_str());
    if (options.max_protrusion > 0 && fit.protrusion > options.max_protrusion)
      std::fprintf(stderr,
                   "mesh_spheres: warning: the protrusion %.3g%% is above --max-protrusion %.3g%%: the mesh's faces "
                   "need more than %d halvings; remesh it finer, or lower --f\n",
                   100 * fit.protrusion, 100 * options.max_protrusion, 2 * geometry::kMaxRefineLevels);
  } catch (const io::ConfigError& e) {
    std::fprintf(stderr, "mesh_spheres: error: %s\n", e.what());
    return kExitBadInput;
  } catch (const io::OutputError& e) {
    std::fprintf(stderr, "mesh_spheres: error: %s\n", e.what());
    return kExitOutputFailed;
  }
  return 0;
}
