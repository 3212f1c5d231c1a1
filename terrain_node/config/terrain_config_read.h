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

/// The boxes filled by the sources read so far.
struct FilledBox {
  std::string path;
  Vec3 lo, hi;
};
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
