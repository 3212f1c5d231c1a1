#pragma once
// Input checks done before anything reaches the device: bad data gives one clear message naming
// the shape, never a crash or a silent garbage grid.

#include "gpu/collision/collision_detector.h"

namespace trackcosim::gpu::detail {

/// Throws std::invalid_argument naming the first bad shape or setting.
void validate_scene(const ShapeScene& scene);
void validate_settings(const CollisionSettings& settings);

}  // namespace trackcosim::gpu::detail
