#pragma once
// A shoe pad given as a surface mesh ("track.shoes.pad": {"mesh": ...}; docs/meshes.md, "Shoe
// pads from meshes"). The mesh is in the shoe frame (vehicle_template.h: origin half-way between
// the pins, x along the chain, y across, z into the track loop), and is run through the geometry/ mesh
// pipeline as tools/mesh_spheres runs it: read, refused unless it bounds a solid, turned outward,
// decomposed into spheres (Heyn 2009, section 3.2). The spheres stay in the shoe frame (the
// decomposition's origin is the frame's origin, not the mesh's centre of mass): the engine's
// shoe body has its reference point, and its mass, at the frame origin, where the pins hang.

#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "io/json_fields.h"
#include "geometry/mesh_file.h"
#include "geometry/mesh_mass.h"
#include "geometry/sphere_decomposition.h"
#include "vehicle_node/mbd/mbd_types.h"

namespace trackcosim::vehicle {

struct MeshPad {
  std::filesystem::path file;                    ///< as resolved against the config's folder
  std::shared_ptr<const geometry::TriangleMesh> mesh;  ///< shoe frame, faces turned outward
  geometry::DecompositionOptions options;
  std::vector<LocalSphere> spheres;              ///< shoe frame
  double top = 0.0;                              ///< largest z of a vertex: the face on the wheels
  /// With "density": mass = density x volume; inertia about the shoe frame's origin (the mesh's
  /// inertia about its centre of mass moved there by the parallel-axis theorem), shoe axes.
  std::optional<double> mass;
  std::optional<Vec3> inertia;
  std::optional<Vec3> centre_of_mass;            ///< shoe frame; reported, not modelled
};

/// Reads a pad object that has a "mesh" key: mesh (required), f, refined_f, refine_levels,
/// sharp_angle, merge (defaults: geometry::DecompositionOptions, as mesh_spheres), density (kg/m^3,
/// optional). The path is relative to `config_folder`. A mesh the
/// geometry/ checks refuse, or one that cannot be read, is a ConfigError at "<...>.pad.mesh" carrying
/// the geometry/ message (`m113_grousers.json: track.shoes.pad.mesh: meshes/x.obj: open mesh: ...`).
MeshPad read_mesh_pad(const io::JsonField& pad, const std::filesystem::path& config_folder);

}  // namespace trackcosim::vehicle
