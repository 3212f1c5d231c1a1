#pragma once
// Reads the vehicle part of a config document (keys "name", "chassis", "track", "contact",
// "gravity") into a VehicleTemplate, checking every value, and checks that the shoes can wrap
// the wheels. Every failure is a io::ConfigError "<file>: <json path>: <why>".

#include "io/json_fields.h"
#include "vehicle_node/track/vehicle_template.h"

namespace trackcosim::vehicle {

/// The top-level keys this reader owns; the caller's expect_object lists them with its own.
inline constexpr std::string_view kVehicleTemplateKeys[] = {"name", "chassis", "track", "contact", "gravity"};

/// `root` is the whole document (already checked to be an object by the caller).
VehicleTemplate read_vehicle_template(const io::JsonField& root, const std::string& source_name);

}  // namespace trackcosim::vehicle
