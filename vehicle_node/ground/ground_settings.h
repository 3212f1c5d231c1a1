#pragma once
// The "rigid_ground" section of a vehicle config: the analytic ground of standalone mode.
//   "rigid_ground": { "profile": "flat" | "bumpy", "height": 0,
//                     "bumps": { "type": "random", "rms_height": 0.05, "wavelength": 2, "seed": 1 } }
//                  or "bumps": { "type": "sinusoids", "components": [ { "amplitude": 0.05,
//                                "wavelength": 3, "direction_deg": 0, "phase_deg": 0 }, ... ] }
// Keys, defaults and units: docs/vehicle.md.

#include <memory>
#include <string>
#include <vector>

#include "io/json_fields.h"
#include "vehicle_node/ground/bumpy_ground.h"

namespace trackcosim::vehicle {

enum class GroundProfile { kFlat, kBumpy };

struct GroundSettings {
  GroundProfile profile = GroundProfile::kFlat;
  double height = 0.0;                 ///< base height of the surface, m
  bool random_bumps = true;            ///< false: the listed sinusoids
  double rms_height = 0.05;            ///< random field, m
  double wavelength = 2.0;             ///< random field: shortest wavelength, m
  std::uint64_t seed = 1;
  int random_components = 16;
  std::vector<Sinusoid> sinusoids;
};

GroundSettings read_ground_settings(const io::JsonField& section);
GroundProfile parse_ground_profile(const std::string& name);  ///< "flat" | "bumpy", else invalid_argument
const char* ground_profile_name(GroundProfile p);

std::shared_ptr<const Ground> make_ground(const GroundSettings& settings);

}  // namespace trackcosim::vehicle
