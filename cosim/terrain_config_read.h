#pragma once
// The section readers behind read_terrain_scene, shared by the loader's source files
// (terrain_config.cpp: top level, container, material; terrain_config_particles.cpp: the
// `particles` generators; terrain_config_solver.cpp: solver and output). Each reads one JSON
// object, fills defaults and throws ConfigError naming the first bad key.

#include <optional>
#include <vector>

#include "cosim/json_fields.h"
#include "cosim/terrain_config.h"

namespace trackcosim::cosim::terrain_config_detail {

Material read_material(const JsonField& field, const Material& defaults);

/// Each source's material defaults to `material`; every sphere must fit in the container, and
/// the boxes of lattice and layered sources must not overlap each other.
std::vector<ParticleSource> read_particles(const JsonField& list, const Material& material,
                                           const std::optional<Container>& container);

gpu::SolverSettings read_solver_settings(const JsonField& field);
OutputSettings read_output_settings(const JsonField& field);
SettleSettings read_settle_settings(const JsonField& field);
DomainSettings read_domain_settings(const JsonField& field);
CosimSettings read_cosim_settings(const JsonField& field);

inline real axis(Vec3 v, int a) { return a == 0 ? v.x : a == 1 ? v.y : v.z; }

}  // namespace trackcosim::cosim::terrain_config_detail
