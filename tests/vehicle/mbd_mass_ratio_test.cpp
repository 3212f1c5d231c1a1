// The mass-ratio case of Lacoursiere's direct-solver paper: light pinned links (10 kg) on a
// heavy body (10,000 kg). Projected Gauss-Seidel/Jacobi needs iterations growing with the
// mass ratio and lets such a chain stretch; the direct solve keeps every pin closed.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "tests/vehicle/mbd_test_util.h"

namespace trackcosim::vehicle {
namespace {

using test::body;
using test::fixed_body;
using test::kG;

// A 10,000 kg hub on a revolute to the world; a chain of 60 pinned 10 kg links, 0.15 m pitch,
// released horizontally so it swings down and whips (large, fast-changing pin loads).
TEST(MbdMassRatio, SixtyLightLinksOnHeavyHubStayConnected) {
  MultibodySystem sys;
  const BodyId world = sys.add_body(fixed_body("world"));
  const BodyId hub = sys.add_body(body("hub", 10000.0, {2000, 2000, 2000}, {0, 0, 0}));
  sys.add_revolute(world, hub, {0, 0, 0}, {0, 1, 0});
  const int n = 60;
  const double pitch = 0.15, m = 10.0;
  BodyId prev = hub;
  std::vector<BodyId> links;
  for (int i = 0; i < n; ++i) {
    const double x0 = 0.5 + i * pitch;
    const BodyId link = sys.add_body(body("link", m, {0.02, 0.02, 0.02}, {x0 + 0.5 * pitch, 0, 0}));
    sys.add_revolute(prev, link, {x0, 0, 0}, {0, 1, 0});
    links.push_back(link);
    prev = link;
  }
  double worst = 0.0;
  const auto t0 = std::chrono::steady_clock::now();
  const int steps = 3000;
  for (int i = 0; i < steps; ++i) {
    sys.step(1e-3);
    worst = std::max(worst, sys.max_joint_violation());
  }
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / steps;
  std::printf("chain 60 x 10 kg on 10 t hub: max pin violation %.3g m, %.3f ms/step\n", worst, ms);
  EXPECT_LT(worst, 1e-3);
  // The chain hangs below the hub: the last link is far below the pivot, not flung apart.
  EXPECT_LT(sys.state(links.back()).position.z, -2.0);
}

// Static version: the chain hanging straight down carries its own weight at the top pin,
// 60 * 10 kg * g, and no joint opens more than its elastic deflection under the largest load,
// joint_compliance * (hub + chain) weight = 1e-10 m/N * 1.04e5 N ~ 1e-5 m.
TEST(MbdMassRatio, HangingChainTopPinCarriesChainWeight) {
  MultibodySystem sys;
  const BodyId world = sys.add_body(fixed_body("world"));
  const BodyId hub = sys.add_body(body("hub", 10000.0, {2000, 2000, 2000}, {0, 0, 0}));
  sys.add_prismatic(world, hub, {0, 0, 0}, {1, 0, 0});  // hub may slide sideways, not fall
  const int n = 60;
  const double pitch = 0.15, m = 10.0;
  BodyId prev = hub;
  JointId top{};
  for (int i = 0; i < n; ++i) {
    const double z0 = -0.5 - i * pitch;
    const BodyId link = sys.add_body(body("link", m, {0.02, 0.02, 0.02}, {0, 0, z0 - 0.5 * pitch}));
    const JointId j = sys.add_revolute(prev, link, {0, 0, z0}, {0, 1, 0});
    if (i == 0) top = j;
    prev = link;
  }
  for (int i = 0; i < 500; ++i) sys.step(1e-3);
  EXPECT_NEAR(sys.joint_force(top, hub).z, -n * m * kG, 1e-3 * n * m * kG);
  EXPECT_LT(sys.max_joint_violation(), sys.solver_settings().joint_compliance * (10000.0 + n * m) * kG);
}

}  // namespace
}  // namespace trackcosim::vehicle
