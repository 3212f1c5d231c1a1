#pragma once
// The spheres of a scene at one instant, as snapshots show them: world centre, radius, velocity
// of the centre and the gid of the body each sphere belongs to (a compound body gives one entry
// per member sphere). Walls (planes, boxes) are not particles and are left out. A co-simulation
// with a moving patch adds each sphere's class (active, fixed, stored: patch_box.h's PatchRole).

#include <cstdint>
#include <vector>

#include "gpu/dynamics/body_set.h"

namespace trackcosim::terrain {

struct ParticleFrame {
  std::vector<real> x, y, z, radius;
  std::vector<real> vx, vy, vz;
  std::vector<gpu::GlobalId> gid;
  std::vector<std::uint8_t> state;  ///< per sphere, its body's class; empty: not written
  std::vector<real> contact_force;  ///< per sphere, its body's contact force sum [N]; empty: not written
  std::size_t size() const { return radius.size(); }
};

/// `states` holds one state per body of `bodies`, in the same order (RigidBodySystem::
/// body_states()). A member sphere at body-frame offset r moves with v + w x (q r).
/// `body_state` and `body_contact_force`, when not empty, give one class and one force per body,
/// which each of its spheres takes.
ParticleFrame particle_frame(const gpu::BodySet& bodies, const std::vector<gpu::BodyState>& states,
                             const std::vector<std::uint8_t>& body_state = {},
                             const std::vector<real>& body_contact_force = {});

}  // namespace trackcosim::terrain
