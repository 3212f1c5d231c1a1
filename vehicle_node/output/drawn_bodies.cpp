#include "vehicle_node/output/drawn_bodies.h"

#include <algorithm>
#include <cmath>

namespace trackcosim::vehicle {

std::vector<DrawnBody> drawn_bodies(const TrackedVehicle& vehicle) {
  std::vector<DrawnBody> out{{vehicle.chassis(), BodyKind::kChassis}};
  const auto add = [&out](const std::vector<BodyId>& bodies, BodyKind kind, Side side) {
    for (std::size_t i = 0; i < bodies.size(); ++i) out.push_back({bodies[i], kind, side, static_cast<std::uint32_t>(i)});
  };
  for (const Side s : kSides) {
    const TrackAssembly& t = vehicle.track(s);
    add({t.sprocket}, BodyKind::kSprocket, s);
    add({t.idler}, BodyKind::kIdler, s);
    add(t.road_wheels, BodyKind::kRoadWheel, s);
    add(t.rollers, BodyKind::kRoller, s);
    add(t.shoes, BodyKind::kShoe, s);
  }
  return out;
}

Vec3 chassis_box_size(const ChassisTemplate& chassis) {
  if (chassis.size) return *chassis.size;
  const Vec3 i = chassis.inertia;
  const auto edge = [m = chassis.mass](double inertia_sum) {
    return std::sqrt(std::max(0.0, 6.0 * inertia_sum / m));
  };
  return {edge(i.y + i.z - i.x), edge(i.x + i.z - i.y), edge(i.x + i.y - i.z)};
}

}  // namespace trackcosim::vehicle
