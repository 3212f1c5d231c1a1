#pragma once
// The section readers behind read_terrain_scene, shared by the loader's source files
// (terrain_config.cpp: top level, container, material; terrain_config_particles.cpp: the
// `particles` generators; terrain_config_solver.cpp: solver and output). Each reads one JSON
// object, fills defaults and throws ConfigError naming the first bad key.

#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "io/json_fields.h"
#include "terrain_node/config/terrain_config.h"

namespace trackcosim::terrain::terrain_config_detail {

// The ranges of the material and body numbers (docs/terrain-config.md, "Ranges"; the radius range
// is kMinRadius .. kMaxRadius, sphere_lattice_json.h). stats.csv's kinetic energy, the settle
// check and the bed's mass are exact sums (comm/gather.h, math/exact_sum.h): each term must stay
// below 2^69 (5.9e20), resolved to 2^-112 (1.9e-34). The ranges were set for the narrower sums
// these replaced (terms below 2^46, 7e13, resolved to 2^-80) and keep that margin: a bed of at
// most kMaxBedMass keeps its kinetic energy below 5e13 J up to a mean speed of 100 m/s; the
// density range spans every grain from below air (1.2 kg/m^3) to four times osmium, and with
// kMinRadius keeps the lightest grain (4e-15 kg) far above the resolution.
inline constexpr real kMinDensity = 1, kMaxDensity = 1e5;  ///< kg/m^3
inline constexpr real kMaxBedMass = 1e10;                  ///< kg, all particles together
inline constexpr real kMinBodyMass = 1e-15;                ///< kg, a compound
/// m/s^2, the length of `gravity`: a hundred times the Earth's.
inline constexpr real kMaxGravity = 1000;
/// s: a step longer than this resolves no grain contact and, under gravity, throws grains at
/// speeds the exact sums cannot hold.
inline constexpr real kMaxStepSize = 1;

/// `field`'s number, > 0 and in [lo, hi] (`unit` for the message). Throws ConfigError
/// "<file>: <path>: must be in [1, 100000] kg/m^3, got 1e+300".
real number_in_range(const io::JsonField& field, real lo, real hi, std::string_view unit);

/// Refuses particles that may weigh more than kMaxBedMass in total (an upper bound: each
/// source's count times the heaviest sphere it can make, a compound's given mass), naming the
/// entry of `list` that passes it.
void check_bed_mass(const io::JsonField& list, const TerrainScene& scene);

Material read_material(const io::JsonField& field, const Material& defaults);

/// Where the particle readers look: the default material, the container, the obstacles and the
/// folder that relative file names start from.
struct ParticleContext {
  Material material;
  std::optional<Container> container;
  const std::vector<Obstacle>* obstacles = nullptr;
  std::filesystem::path folder;
};

/// Each source's material defaults to `material`; every sphere must fit in the container, and
/// the boxes of lattice and layered sources must not overlap each other or an obstacle.
std::vector<ParticleSource> read_particles(const io::JsonField& list, const ParticleContext& context);
std::vector<Obstacle> read_obstacles(const io::JsonField& list, const Material& material);
/// `bodies` (terrain_config_bodies.cpp): meshes and sphere files are read, checked and
/// decomposed here, relative to `context.folder`; each centre of mass must lie in the container.
std::vector<SceneBody> read_bodies(const io::JsonField& list, const ParticleContext& context);
/// A `bodies` entry's `shape` (also the `rocks` source's).
BodyShape read_body_shape(const io::JsonField& field, const ParticleContext& context);

/// The boxes filled by the sources read so far.
struct FilledBox {
  std::string path;
  Vec3 lo, hi;
};
/// `"kind": "rocks"` (terrain_config_bodies.cpp).
RocksSource read_rocks(const io::JsonField& entry, const ParticleContext& context, std::vector<FilledBox>& boxes);
/// Fails on `field` when [lo, hi] leaves the container; the lid counts only when the top is closed.
void check_inside(const io::JsonField& field, std::string_view what, Vec3 lo, Vec3 hi,
                  const std::optional<Container>& container);
/// Boxes touching along a face are fine; sharing a volume would generate overlapping spheres.
void check_disjoint(const io::JsonField& entry, Vec3 lo, Vec3 hi, std::vector<FilledBox>& boxes);
/// [x, y]
std::array<real, 2> read_xy(const io::JsonField& f);
/// [x_min, y_min] and [x_max, y_max] with max > min.
Rectangle read_rectangle(const io::JsonField& min_field, const io::JsonField& max_field);

SurfaceSource read_surface_source(const io::JsonField& f, const std::string& kind, const ParticleContext& context,
                                  std::vector<FilledBox>& boxes);
RandomFillSource read_random_fill(const io::JsonField& f, const ParticleContext& context, std::vector<FilledBox>& boxes);

gpu::SolverSettings read_solver_settings(const io::JsonField& field);
OutputSettings read_output_settings(const io::JsonField& field);
SettleSettings read_settle_settings(const io::JsonField& field);
DomainSettings read_domain_settings(const io::JsonField& field);
CosimSettings read_cosim_settings(const io::JsonField& field);

inline real axis(Vec3 v, int a) { return a == 0 ? v.x : a == 1 ? v.y : v.z; }

}  // namespace trackcosim::terrain::terrain_config_detail
