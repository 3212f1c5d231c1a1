#pragma once
// The `collision` object shared by scene files and terrain configs (docs/scene-format.md,
// docs/terrain-config.md): one reader, so both documents accept the same keys and defaults.

#include <nlohmann/json.hpp>

#include "gpu/collision/collision_detector.h"
#include "io/json_fields.h"

namespace trackcosim::terrain {

/// Reads {envelope, bin_size, bin_size_factor, max_contacts_per_body_pair}; a key left out keeps
/// gpu::CollisionSettings' default. Throws ConfigError naming the key.
gpu::CollisionSettings read_collision_settings(const io::JsonField& field);

/// The same object with every key written (run.json's resolved config).
nlohmann::ordered_json collision_settings_json(const gpu::CollisionSettings& settings);

}  // namespace trackcosim::terrain
