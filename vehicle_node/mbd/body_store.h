#pragma once
// Internal: rigid-body state as structure of arrays. Hot fields (pose, velocity) apart from
// cold ones (names). Fixed bodies have no velocity unknowns in the solver (dof = -1).

#include <string>
#include <vector>

#include "vehicle_node/mbd/eigen_types.h"
#include "vehicle_node/mbd/mbd_types.h"

namespace trackcosim::vehicle::detail {

struct BodyStore {
  // hot
  std::vector<V3> x, v, w;                 // position, velocity, angular velocity (world)
  std::vector<Eigen::Quaterniond> q;       // body -> world
  std::vector<double> mass;                // 0 for fixed bodies
  std::vector<V3> inertia;                 // principal moments, body frame
  std::vector<V3> f_ext, t_ext;            // held external force, torque about com (world)
  std::vector<double> world_damping;       // 1/s: rate of the dashpot to the world (0: none)
  std::vector<int> dof;                    // index among moving bodies, -1 when fixed
  // cold
  std::vector<std::string> name;
  int moving_count = 0;

  std::size_t size() const { return x.size(); }
  int add(const BodyDesc& d);              // validates, returns the index
  void check(BodyId b, const char* what) const;  // throws on an unknown id
  bool fixed(int i) const { return dof[i] < 0; }
  M3 inertia_world(int i) const;           // R diag(I) R^T
  M3 inv_inertia_world(int i) const;
  V3 point_velocity(int i, const V3& world_point) const { return v[i] + w[i].cross(world_point - x[i]); }
};

}  // namespace trackcosim::vehicle::detail
