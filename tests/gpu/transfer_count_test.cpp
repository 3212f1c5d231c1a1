// Resident state (issue 22): a step of RigidBodySystem keeps bodies, contacts, warm starts and
// solver buffers in device memory. What it copies between host and device is counted where the
// copy is made (gpu/memory/host_copy.h), in the CPU build too, so this test shows on a machine
// without a GPU that a step which writes no output moves no array per body or per contact: its
// traffic is a few counts and sums, the same for 10x more spheres. Reading the states for an
// output step is counted as what it is: at least one array per body field.

#include <gtest/gtest.h>

#include <cstdint>

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
  // Its traffic does not grow with the terrain, but for the CPU build's way of adding up: each
  // summed pass of a step (the final residual over the contacts, the kinetic energy over the
  // bodies) brings back one 48-byte partial per 512-item chunk, in one more copy once a pass has
  // 8 chunks or more (deterministic_sum.h). On a GPU each brings back one 48-byte total.
  const auto chunks = [](std::size_t n) { return double((n + 511) / 512); };
  EXPECT_LE(large.bytes_per_step, small.bytes_per_step + 48 * (chunks(large.contacts) + chunks(large.bodies)))
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

}  // namespace
}  // namespace trackcosim::gpu::test
