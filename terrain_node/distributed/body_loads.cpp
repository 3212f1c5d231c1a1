#include "terrain_node/distributed/body_loads.h"

namespace trackcosim::terrain {

BodyLoadSchedule::BodyLoadSchedule(const TerrainConfig& config) {
  const std::vector<SceneBody>& bodies = config.scene.bodies;
  for (std::size_t i = 0; i < bodies.size(); ++i)
    if (!bodies[i].loads.empty()) bodies_.push_back({config.body_gids.at(i), &bodies[i]});
}

void BodyLoadSchedule::apply(DistributedTerrain& terrain, double step_start, real step_size) const {
  const auto middle = static_cast<real>(step_start + step_size / 2);
  for (const Loaded& b : bodies_) {
    const BodyLoad load = b.body->load_at(middle);
    terrain.set_applied_load(b.gid, load.force, load.torque);
  }
}

}  // namespace trackcosim::terrain
