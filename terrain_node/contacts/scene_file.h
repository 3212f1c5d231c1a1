#pragma once
// The scene file: the shapes of one collision-detection scene and the collision settings, as a
// JSON document (comments allowed). The format, every key with its default and units, and the
// errors are documented in docs/scene-format.md; this loader is the reference for that page.

#include <filesystem>
#include <string>
#include <string_view>

#include "gpu/collision/collision_detector.h"
#include "gpu/collision/shape_scene.h"
#include "io/config_error.h"

namespace trackcosim::terrain {

struct SceneFile {
  gpu::ShapeScene shapes;
  gpu::CollisionSettings collision;
};

/// Reads and validates a scene file. Throws ConfigError naming the file and the JSON path of the
/// first bad key (unknown key, wrong type, missing field, impossible value, duplicate id).
SceneFile load_scene_file(const std::filesystem::path& file);

/// The same from text already in memory; `source_name` stands for the file in error messages.
SceneFile parse_scene(std::string_view text, const std::string& source_name);

}  // namespace trackcosim::terrain
