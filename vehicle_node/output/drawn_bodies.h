#pragma once
// Which bodies of a tracked vehicle the VTK series draws, in the fixed order of its frames block
// (docs/vehicle.md, "VTK series"): the chassis, then per side (left, right) the sprocket, the
// idler, the road wheels, the rollers and the shoes in shoes.csv's order. A body's index in this
// list is its `body` number in every block. Carriers (idler, sprung road wheels) have no
// geometry of their own and are left out.

#include <cstdint>
#include <vector>

#include "vehicle_node/track/tracked_vehicle.h"

namespace trackcosim::vehicle {

/// The `kind` array's values: part of the file format, never renumber.
enum class BodyKind : std::uint8_t { kChassis = 0, kSprocket = 1, kIdler = 2, kRoadWheel = 3, kRoller = 4, kShoe = 5 };

struct DrawnBody {
  BodyId id;
  BodyKind kind;
  Side side = Side::kLeft;     ///< meaningless for the chassis
  std::uint32_t index = 0;     ///< along its side's list (a shoe's: shoes.csv's `shoe` column)
};

std::vector<DrawnBody> drawn_bodies(const TrackedVehicle& vehicle);

/// [length, width, height] of the chassis box: the config's `chassis.size`, else the uniform
/// box of the chassis' mass and principal inertia. From I_xx = m (w^2 + h^2) / 12 and its two
/// siblings: l^2 = 6 (I_yy + I_zz - I_xx) / m, w^2 = 6 (I_xx + I_zz - I_yy) / m,
/// h^2 = 6 (I_xx + I_yy - I_zz) / m. Inertias that no box has (a sum below zero) get a flat side.
Vec3 chassis_box_size(const ChassisTemplate& chassis);

}  // namespace trackcosim::vehicle
