#include "vehicle_node/coupled/shoe_messages.h"

#include <algorithm>

namespace trackcosim::vehicle {
namespace {

cosim::ShoeState shoe_state(const MultibodySystem& system, BodyId b) {
  const BodyState s = system.state(b);
  return {{s.position.x, s.position.y, s.position.z},
          {s.orientation.w, s.orientation.x, s.orientation.y, s.orientation.z},
          {s.velocity.x, s.velocity.y, s.velocity.z},
          {s.angular_velocity.x, s.angular_velocity.y, s.angular_velocity.z}};
}

/// Lowest point of a shoe's spheres in the world (m).
double lowest_point(const MultibodySystem& system, BodyId b, const std::vector<LocalSphere>& spheres) {
  const BodyState s = system.state(b);
  double low = 1e300;
  for (const LocalSphere& sp : spheres) low = std::min(low, (s.position + rotate(s.orientation, sp.offset)).z - sp.radius);
  return low;
}

}  // namespace

std::vector<BodyId> all_shoes(const TrackedVehicle& v) {
  std::vector<BodyId> out;
  for (const Side s : kSides)
    for (const BodyId b : v.track(s).shoes) out.push_back(b);
  return out;
}

std::vector<cosim::ShoeState> shoe_states(const MultibodySystem& system, const std::vector<BodyId>& shoes) {
  std::vector<cosim::ShoeState> out;
  for (const BodyId b : shoes) out.push_back(shoe_state(system, b));
  return out;
}

cosim::VehicleHello make_hello(const TrackedVehicle& v, const MultibodySystem& system, double coupling_step,
                               double end_time, const std::string& scheme) {
  cosim::VehicleHello h;
  h.coupling_step = coupling_step;
  h.end_time = end_time;
  h.scheme = scheme;
  h.checkpoint = true;
  for (const Side s : kSides) {
    cosim::ShoeGeometry g;
    g.mass = v.model().track.shoes.mass;
    for (const LocalSphere& sp : v.terrain_shoe_spheres(s)) g.spheres.push_back({sp.offset, sp.radius});
    for (const BodyId b : v.track(s).shoes) {
      h.shoes.push_back(g);
      h.initial.push_back(shoe_state(system, b));
    }
  }
  return h;
}

void apply_shoe_forces(MultibodySystem& system, const std::vector<BodyId>& shoes,
                       const std::vector<cosim::ShoeForce>& forces) {
  for (std::size_t i = 0; i < shoes.size(); ++i)
    system.set_external_force(shoes[i], {forces[i].force[0], forces[i].force[1], forces[i].force[2]},
                              {forces[i].torque[0], forces[i].torque[1], forces[i].torque[2]});
}

void apply_shoe_stiffness(MultibodySystem& system, const std::vector<BodyId>& shoes,
                          const std::vector<cosim::ShoeStiffness>& stiffness, const std::vector<cosim::ShoeState>& sent,
                          double t_k) {
  for (std::size_t i = 0; i < shoes.size(); ++i) {
    ImplicitLoad load;
    for (int r = 0; r < 6; ++r)
      for (int c = 0; c < 6; ++c) {
        const int at = cosim::ShoeStiffness::packed(r, c);
        load.stiffness[static_cast<std::size_t>(6 * r + c)] = stiffness[i].stiffness[at];
        load.damping[static_cast<std::size_t>(6 * r + c)] = stiffness[i].damping[at];
      }
    const cosim::ShoeState& s = sent[i];
    load.anchor = {{s.position[0], s.position[1], s.position[2]},
                   {s.orientation[0], s.orientation[1], s.orientation[2], s.orientation[3]},
                   {s.velocity[0], s.velocity[1], s.velocity[2]},
                   {s.angular_velocity[0], s.angular_velocity[1], s.angular_velocity[2]}};
    load.anchor_time = t_k;
    system.set_implicit_load(shoes[i], load);
  }
}

std::vector<Vec3> terrain_forces(const std::vector<cosim::ShoeForce>& forces) {
  std::vector<Vec3> out;
  for (const cosim::ShoeForce& f : forces) out.push_back({f.force[0], f.force[1], f.force[2]});
  return out;
}

double mean_sinkage(const TrackedVehicle& vehicle, const MultibodySystem& system, const std::vector<BodyId>& shoes,
                    const std::vector<cosim::ShoeForce>& forces, double surface_height) {
  const std::vector<LocalSphere> left = vehicle.terrain_shoe_spheres(Side::kLeft),
                                 right = vehicle.terrain_shoe_spheres(Side::kRight);
  const std::size_t left_count = vehicle.track(Side::kLeft).shoes.size();
  double depth = 0;
  int loaded = 0;
  for (std::size_t i = 0; i < shoes.size(); ++i) {
    if (forces[i].force[2] <= 1.0) continue;  // not carried by the terrain
    depth += surface_height - lowest_point(system, shoes[i], i < left_count ? left : right);
    ++loaded;
  }
  return loaded > 0 ? depth / loaded : 0.0;
}

}  // namespace trackcosim::vehicle
