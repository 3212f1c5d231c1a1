#pragma once
// The spheres of a scene at one instant, as snapshots show them: world centre, radius, velocity
// of the centre and the gid of the body each sphere belongs to (a compound body gives one entry
// per member sphere). Walls (planes, boxes) are not particles and are left out.

#include <vector>

#include "gpu/dynamics/body_set.h"

namespace trackcosim::terrain {

struct ParticleFrame {
  std::vector<real> x, y, z, radius;
  std::vector<real> vx, vy, vz;
  std::vector<gpu::GlobalId> gid;
  std::size_t size() const { return radius.size(); }
};

/// `states` holds one state per body of `bodies`, in the same order (RigidBodySystem::
/// body_states()). A member sphere at body-frame offset r moves with v + w x (q r).
ParticleFrame particle_frame(const gpu::BodySet& bodies, const std::vector<gpu::BodyState>& states);

}  // namespace trackcosim::terrain
