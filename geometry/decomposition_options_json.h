#pragma once
// The sphere decomposition's options as a config gives them beside a "mesh" (docs/meshes.md,
// "Options"): f, refined_f, refine_levels, sharp_angle, merge. One reader for every config that
// takes a mesh (a shoe pad in vehicle_node, a terrain body in terrain_node), so the keys, the
// defaults and the limits are the same wherever a mesh is given.

#include "io/json_fields.h"
#include "geometry/sphere_decomposition.h"

namespace trackcosim::geometry {

/// Reads the option keys present in `object` (its other keys are the caller's to check with
/// expect_object); absent ones keep DecompositionOptions' defaults. A value out of range fails
/// on its field: f and refined_f in [0, 1), refine_levels 0 to 8, sharp_angle in (0, 180)
/// degrees, merge in [0, 1].
DecompositionOptions read_decomposition_options(const io::JsonField& object);

}  // namespace trackcosim::geometry
