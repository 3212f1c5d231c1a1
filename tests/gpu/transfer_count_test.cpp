// Resident state (issue 22): a step of RigidBodySystem keeps bodies, contacts, warm starts and
// solver buffers in device memory. What it copies between host and device is counted where the
// copy is made (gpu/memory/host_copy.h), in the CPU build too, so this test shows on a machine
// without a GPU that a step which writes no output moves no array per body or per contact: its
// traffic is a few counts and sums, the same for 10x more spheres. Reading the states for an
// output step is counted as what it is: at least one array per body field. Moving a
// co-simulation's shoe proxies is one copy per step, not 13 per shoe.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "gpu/memory/transfer_count.h"
#include "tests/gpu/dynamics_test_scenes.h"

namespace trackcosim::gpu::test {
namespace {

struct Traffic {
  std::size_t bodies = 0, contacts = 0;
  double bytes_per_step = 0, copies_per_step = 0;
  std::uint64_t states_bytes = 0;  ///< one body_states() call
};

// Jacobi with a fixed iteration count (tolerance 0), the terrain's production setting: the solve
// needs no residual, so no sum leaves the device inside the iteration loop.
Traffic measure(int side, int layers, int steps = 5) {
  BedSpec spec;
  spec.side = side;
  spec.layers = layers;
  StepSettings settings = settings_for(SolverMethod::Jacobi, 0.2 * spec.radius);
  settings.solver.tolerance = 0;
  settings.solver.record_residuals = false;
  RigidBodySystem system(boxed_bed(spec), settings);
  step_n(system, 40);  // landed: every sphere has contacts, the warm start is full
  const TransferBytes before = transfer_bytes();
  step_n(system, steps);
  const TransferBytes during = transfer_bytes() - before;
  Traffic t;
  t.bodies = system.body_count();
  t.contacts = system.last_stats().contacts;
  t.bytes_per_step = double(during.total()) / steps;
  t.copies_per_step = double(during.copies) / steps;
  const TransferBytes read_start = transfer_bytes();
  (void)system.body_states();
  t.states_bytes = (transfer_bytes() - read_start).to_host;
  return t;
}

TEST(TransferCount, AStepMovesNoBodyOrContactArray) {
  const Traffic small = measure(8, 8);    // 512 spheres
  const Traffic large = measure(16, 20);  // 5,120 spheres
  ASSERT_GT(small.contacts, small.bodies) << "the bed must have landed";
  ASSERT_GT(large.contacts, large.bodies);
  // One array of doubles over the bodies would be 8 bytes per body; a step moves far less.
  EXPECT_LT(large.bytes_per_step, 1.0 * large.bodies)
      << large.bytes_per_step << " bytes per step for " << large.bodies << " bodies";
  // Its traffic does not grow with the terrain: each summed pass of a step (the final residual
  // over the contacts, the kinetic energy over the bodies) brings back one 112-byte total on a
  // GPU, and the CPU build adds its chunk partials where they are (deterministic_sum.h).
  EXPECT_LE(large.bytes_per_step, small.bytes_per_step)
      << "small bed " << small.bytes_per_step << " B/step, large bed " << large.bytes_per_step << " B/step";
  EXPECT_LE(large.copies_per_step, small.copies_per_step + 2) << "the same copies, whatever the size";
  // The counter sees what does cross: reading states is 13 doubles and a gid per body.
  EXPECT_GE(large.states_bytes, 14u * 8u * large.bodies);
}

TEST(TransferCount, ContactsCrossOnlyWhenAsked) {
  BedSpec spec;
  spec.side = 8;
  spec.layers = 8;
  RigidBodySystem system(boxed_bed(spec), settings_for(SolverMethod::Jacobi, 0.2 * spec.radius));
  step_n(system, 40);
  // The distributed driver's path: detection leaves the contacts on the device...
  const TransferBytes before = transfer_bytes();
  system.detect_contacts();
  const TransferBytes detected = transfer_bytes() - before;
  const std::size_t count = system.contact_count();
  ASSERT_GT(count, 100u);
  EXPECT_LT(detected.total(), count) << "under a byte per contact";
  // ... and a reader that asks for them gets 14 arrays per contact: two gids, two shape
  // indices, distance, normal and both points.
  const TransferBytes asked_from = transfer_bytes();
  const ContactList& contacts = system.host_contacts();
  const TransferBytes asked = transfer_bytes() - asked_from;
  ASSERT_EQ(contacts.size(), count);
  EXPECT_GE(asked.to_host, count * (4 * 8 + 2 * 4 + 7 * 8 - 8));
  system.solve();
  system.integrate();
}

/// The 8 x 8 x 8 bed (0.18 m wide, its top at 0.126 m) with `shoes` kinematic spheres (gids
/// 1000..) of 20 mm in a row touching its top layer.
BodySet bed_with_shoes(int shoes) {
  BedSpec spec;
  spec.side = 8;
  spec.layers = 8;
  BodySet scene = boxed_bed(spec);
  for (int k = 0; k < shoes; ++k) {
    BodyDesc d;
    d.gid = 1000 + static_cast<GlobalId>(k);
    d.position = {-0.077 + 0.014 * k, 0.0, 0.14};
    d.motion = Motion::Kinematic;
    d.friction = 0.5;
    scene.add_sphere(scene.add_body(d), {0, 0, 0}, 0.02);
  }
  return scene;
}

Quat unit(Quat q) {
  const real n = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  return {q.w / n, q.x / n, q.y / n, q.z / n};
}

/// Where the shoes are at step `k`: sinking and sliding, each its own way.
std::vector<BodyState> shoe_states(const RigidBodySystem& system, int shoes, int k) {
  std::vector<BodyState> states;
  for (int s = 0; s < shoes; ++s) {
    const real t = real(k) * 1e-3;
    const std::uint32_t i = *system.index_of(1000 + static_cast<GlobalId>(s));
    const BodyState now = system.body_state(i);
    states.push_back({now.gid,
                      {now.position.x + 1e-4 * s, now.position.y, 0.14 - 0.3 * t},
                      unit(Quat{1, 0.01 * s * t, 0, 0.02 * t}),
                      {0.1 * s, 0, -0.3},
                      {0, 0.5 * s, 0}});
  }
  return states;
}

// The shoe proxies of a co-simulation, moved every step: all at once (set_kinematic_states)
// the bodies end the same, bit for bit, as moved one by one (set_pose and set_velocity), and
// the move costs one copy instead of 13 per shoe, whatever the shoe count. A fixed body, or an
// index out of range, is refused before anything moves.
TEST(TransferCount, ShoeProxiesMoveInOneCopy) {
  const int shoes = 12;
  const BodySet scene = bed_with_shoes(shoes);
  const StepSettings settings = settings_for(SolverMethod::Jacobi, 0.005);
  RigidBodySystem batched(scene, settings), single(scene, settings);
  std::uint64_t batched_copies = 0, single_copies = 0;
  for (int k = 0; k < 20; ++k) {
    const std::vector<BodyState> states = shoe_states(batched, shoes, k);
    std::vector<std::uint32_t> indices;
    for (const BodyState& s : states) indices.push_back(*batched.index_of(s.gid));
    TransferBytes before = transfer_bytes();
    batched.set_kinematic_states(indices, states);
    batched_copies += (transfer_bytes() - before).copies;
    before = transfer_bytes();
    for (std::size_t j = 0; j < states.size(); ++j) {
      single.set_pose(indices[j], states[j].position, states[j].orientation);
      single.set_velocity(indices[j], states[j].velocity, states[j].angular_velocity);
    }
    single_copies += (transfer_bytes() - before).copies;
    batched.step();
    single.step();
  }
  EXPECT_EQ(batched_copies, 20u);
  EXPECT_EQ(single_copies, 20u * 13u * shoes);
  EXPECT_EQ(batched.last_stats().contacts, single.last_stats().contacts);
  EXPECT_GT(batched.last_stats().contacts, 0u);
  const std::vector<BodyState> a = batched.body_states(), b = single.body_states();
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].position.z, b[i].position.z) << "body " << i;
    ASSERT_EQ(a[i].orientation.x, b[i].orientation.x) << "body " << i;
    ASSERT_EQ(a[i].velocity.x, b[i].velocity.x) << "body " << i;
    ASSERT_EQ(a[i].angular_velocity.y, b[i].angular_velocity.y) << "body " << i;
  }

  const std::uint32_t shoe = *batched.index_of(1000);
  const BodyState kept = batched.body_state(shoe);
  const std::uint32_t wall = 0;  // boxed_bed's first body: the fixed container
  ASSERT_FALSE(is_dynamic(scene.motion[wall]));
  ASSERT_EQ(scene.motion[wall], Motion::Fixed);
  BodyState moved = kept;
  moved.position.z += 0.1;
  EXPECT_THROW(batched.set_kinematic_states({shoe, wall}, {moved, moved}), std::logic_error);
  EXPECT_THROW(batched.set_kinematic_states({shoe, 1u << 30}, {moved, moved}), std::out_of_range);
  EXPECT_THROW(batched.set_kinematic_states({shoe}, {}), std::invalid_argument);
  EXPECT_EQ(batched.body_state(shoe).position.z, kept.position.z) << "a refused call moved a body";
}

}  // namespace
}  // namespace trackcosim::gpu::test
