// Collision detection of one shape kind at a time against answers worked out by hand:
// spheres on planes and boxes (faces, edges, corners, inside, rotated, huge), compound bodies
// and their per-pair contact cap, bin grids beyond 32-bit bin counts, and bad input.
//
// Every expected value below is the analytic contact of the contact_list.h conventions: A is
// the body with the smaller gid, the normal points from A to B, point_b = point_a + distance *
// normal. Tolerance 1e-12 (double precision on coordinates of order 10).

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numbers>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/collision/collision_detector.h"

namespace trackcosim::gpu {
namespace {

constexpr real kTolerance = 1e-12;

ContactList detect(const ShapeScene& scene, CollisionSettings settings = {}) {
  CollisionDetector detector(settings);
  return detector.detect(scene);
}

::testing::AssertionResult near(Vec3 got, Vec3 want, real tol = kTolerance) {
  if (std::fabs(got.x - want.x) <= tol && std::fabs(got.y - want.y) <= tol && std::fabs(got.z - want.z) <= tol)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "(" << got.x << ", " << got.y << ", " << got.z << ") != (" << want.x
                                       << ", " << want.y << ", " << want.z << ")";
}

struct Side {
  GlobalId gid;
  ShapeIndex shape;
};

struct ExpectedContact {
  Side a, b;
  real distance;
  Vec3 normal, point_a, point_b;
};

void expect_contact(const ContactList& list, std::size_t i, const ExpectedContact& e) {
  ASSERT_LT(i, list.size());
  EXPECT_EQ(list.gid_a[i], e.a.gid);
  EXPECT_EQ(list.shape_a[i], e.a.shape);
  EXPECT_EQ(list.gid_b[i], e.b.gid);
  EXPECT_EQ(list.shape_b[i], e.b.shape);
  EXPECT_NEAR(list.distance[i], e.distance, kTolerance);
  EXPECT_TRUE(near(list.normal(i), e.normal)) << "normal";
  EXPECT_TRUE(near(list.point_a(i), e.point_a)) << "point on A";
  EXPECT_TRUE(near(list.point_b(i), e.point_b)) << "point on B";
  // The convention that ties the fields together, whatever the shapes.
  EXPECT_TRUE(near(list.point_b(i), list.point_a(i) + list.distance[i] * list.normal(i))) << "b = a + d n";
}

void expect_single_contact(const ContactList& list, const ExpectedContact& e) {
  ASSERT_EQ(list.size(), 1u);
  expect_contact(list, 0, e);
}

ExpectedContact swapped(const ExpectedContact& e) { return {e.b, e.a, e.distance, -e.normal, e.point_b, e.point_a}; }

ShapeScene sphere_scene(Vec3 c, real r, Side sphere) {
  ShapeScene scene;
  scene.spheres.add(c, r, sphere.gid, sphere.shape);
  return scene;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

bool bitwise_equal(const ContactList& a, const ContactList& b) {
  return same_bits(a.gid_a, b.gid_a) && same_bits(a.gid_b, b.gid_b) && same_bits(a.shape_a, b.shape_a) &&
         same_bits(a.shape_b, b.shape_b) && same_bits(a.distance, b.distance) && same_bits(a.nx, b.nx) &&
         same_bits(a.ny, b.ny) && same_bits(a.nz, b.nz) && same_bits(a.ax, b.ax) && same_bits(a.ay, b.ay) &&
         same_bits(a.az, b.az) && same_bits(a.bx, b.bx) && same_bits(a.by, b.by) && same_bits(a.bz, b.bz);
}

// ------------------------------------------------------------------------------------------
// 4. Sphere-plane: h = (c - p0).n, distance = h - r, plane point c - h n, sphere point c - r n.

const Side kFloorSide{0, 2};
const Side kBall{5, 3};
const PlaneShape kFloor{kFloorSide.gid, kFloorSide.shape, {0, 0, 0}, {0, 0, 1}};

ShapeScene ball_on_floor(real height, real r = 0.5) {
  ShapeScene scene = sphere_scene({1, 2, height}, r, kBall);
  scene.planes.push_back(kFloor);
  return scene;
}

TEST(SpherePlane, RestingSphereTouchesAtZeroDistance) {
  const ContactList c = detect(ball_on_floor(0.5));
  ASSERT_NO_FATAL_FAILURE(expect_single_contact(c, {kFloorSide, kBall, 0, {0, 0, 1}, {1, 2, 0}, {1, 2, 0}}));
  EXPECT_EQ(c.distance[0], 0) << "0.5 - 0.5 is exact";
}

TEST(SpherePlane, PenetratingSphere) {
  expect_single_contact(detect(ball_on_floor(0.25)), {kFloorSide, kBall, -0.25, {0, 0, 1}, {1, 2, 0}, {1, 2, -0.25}});
}

TEST(SpherePlane, CentreInsideTheSolidHalfSpace) {
  expect_single_contact(detect(ball_on_floor(-2)), {kFloorSide, kBall, -2.5, {0, 0, 1}, {1, 2, 0}, {1, 2, -2.5}});
}

TEST(SpherePlane, ReportedWithinTheEnvelopeOnly) {
  CollisionSettings settings;
  settings.envelope = 0.1;
  EXPECT_EQ(detect(ball_on_floor(0.625), settings).size(), 0u) << "gap 0.125 > envelope 0.1";
  EXPECT_EQ(detect(ball_on_floor(0.5625)).size(), 0u) << "gap 0.0625 > default envelope 0";
  expect_single_contact(detect(ball_on_floor(0.5625), settings),
                        {kFloorSide, kBall, 0.0625, {0, 0, 1}, {1, 2, 0}, {1, 2, 0.0625}});
}

TEST(SpherePlane, TiltedPlane) {
  const real s = std::sqrt(real(0.5));
  const Vec3 n{0, s, s}, p0{1, -2, 3};
  const Vec3 touch = p0 + Vec3{4, 1, -1};  // (4, 1, -1) . n = 0: a point of the plane
  ShapeScene scene = sphere_scene(touch + 0.75 * n, 1.0, kBall);
  scene.planes.push_back({kFloorSide.gid, kFloorSide.shape, p0, n});
  expect_single_contact(detect(scene), {kFloorSide, kBall, -0.25, n, touch, touch - 0.25 * n});
}

TEST(SpherePlane, PlaneWithLargerGidIsBodyB) {
  const Side plane_side{9, 1};
  ShapeScene scene = sphere_scene({1, 2, 0.25}, 0.5, kBall);
  scene.planes.push_back({plane_side.gid, plane_side.shape, {0, 0, 0}, {0, 0, 1}});
  // Normal from the sphere (A) to the plane (B) is -n; point_a on the sphere.
  expect_single_contact(detect(scene), {kBall, plane_side, -0.25, {0, 0, -1}, {1, 2, -0.25}, {1, 2, 0}});
}

TEST(SpherePlane, SphereInACornerTouchesBothPlanesInKeyOrder) {
  const Side wall_side{1, 0};
  ShapeScene scene = ball_on_floor(0.45);
  scene.spheres.x[0] = 0.4;
  scene.planes.push_back({wall_side.gid, wall_side.shape, {0, 0, 0}, {1, 0, 0}});
  const ContactList c = detect(scene);
  ASSERT_EQ(c.size(), 2u);
  expect_contact(c, 0, {kFloorSide, kBall, -0.05, {0, 0, 1}, {0.4, 2, 0}, {0.4, 2, -0.05}});
  expect_contact(c, 1, {wall_side, kBall, -0.1, {1, 0, 0}, {0, 2, 0.45}, {-0.1, 2, 0.45}});
}

// ------------------------------------------------------------------------------------------
// 5. Sphere-box. Outside: towards the clamped point; centre inside: out through the face of
// least depth. Expectations are written in the box frame and mapped with the box's rotation,
// spelled out here as a matrix so the test does not borrow the library's quaternion code.

using Rotation = Vec3 (*)(Vec3);
Vec3 no_rotation(Vec3 v) { return v; }
Vec3 rotate_z45(Vec3 v) {
  const real s = std::sqrt(real(0.5));
  return {s * (v.x - v.y), s * (v.x + v.y), v.z};
}
const Quat kIdentity{1, 0, 0, 0};
const Quat kZ45{std::cos(std::numbers::pi / 8), 0, 0, std::sin(std::numbers::pi / 8)};

const Side kBoxSide{1, 4};
const Side kProbe{7, 0};

struct BoxCase {
  Vec3 center, half;
  Quat orientation;
  Rotation rotation;
};
const BoxCase kAxisAligned{{2, -1, 3}, {1, 2, 3}, kIdentity, no_rotation};
const BoxCase kTurned{{10, 0, 0}, {1, 0.5, 0.5}, kZ45, rotate_z45};

/// A sphere at `local` (box frame) against the box; the expected contact from the box's side.
void expect_box_contact(const BoxCase& box, Vec3 local, real r, Vec3 normal_local, Vec3 box_point_local,
                        real distance, CollisionSettings settings = {}) {
  const auto world = [&](Vec3 v) { return box.center + box.rotation(v); };
  ShapeScene scene = sphere_scene(world(local), r, kProbe);
  scene.boxes.push_back({kBoxSide.gid, kBoxSide.shape, box.center, box.half, box.orientation});
  const Vec3 n = box.rotation(normal_local);
  expect_single_contact(detect(scene, settings),
                        {kBoxSide, kProbe, distance, n, world(box_point_local), world(local) - r * n});
}

TEST(SphereBox, NearAFace) {
  expect_box_contact(kAxisAligned, {1.5, 0.5, 0.5}, 0.75, {1, 0, 0}, {1, 0.5, 0.5}, -0.25);
}

TEST(SphereBox, NearAnEdge) {
  // delta = (0.3, 0.4, 0): |delta| = 0.5.
  expect_box_contact(kAxisAligned, {1.3, 2.4, 0}, 0.75, {0.6, 0.8, 0}, {1, 2, 0}, -0.25);
}

TEST(SphereBox, NearACornerWithinAndBeyondTheEnvelope) {
  // delta = (0.2, 0.4, 0.4): |delta| = 0.6, gap 0.1 for r = 0.5.
  const Vec3 local{1.2, 2.4, 3.4};
  CollisionSettings wide;
  wide.envelope = 0.125;
  expect_box_contact(kAxisAligned, local, 0.5, Vec3{1, 2, 2} * (real(1) / 3), {1, 2, 3}, 0.1, wide);
  expect_box_contact(kAxisAligned, local, 0.7, Vec3{1, 2, 2} * (real(1) / 3), {1, 2, 3}, -0.1);

  ShapeScene scene = sphere_scene(kAxisAligned.center + local, 0.5, kProbe);
  scene.boxes.push_back({kBoxSide.gid, kBoxSide.shape, kAxisAligned.center, kAxisAligned.half, kIdentity});
  CollisionSettings narrow;
  narrow.envelope = 0.05;
  EXPECT_EQ(detect(scene, narrow).size(), 0u) << "gap 0.1 > envelope 0.05";
}

TEST(SphereBox, CentreInsideLeavesThroughTheNearestFace) {
  // Depths to the faces: x 0.5, y 1.75, z 0.25 -> out through -z; distance -(0.25) - r.
  expect_box_contact(kAxisAligned, {0.5, 0.25, -2.75}, 0.25, {0, 0, -1}, {0.5, 0.25, -3}, -0.5);
}

TEST(SphereBox, BoxTurned45DegreesAboutZ) {
  expect_box_contact(kTurned, {1.25, 0, 0}, 0.5, {1, 0, 0}, {1, 0, 0}, -0.25);
  expect_box_contact(kTurned, {0, -0.75, 0.1}, 0.5, {0, -1, 0}, {0, -0.5, 0.1}, -0.25);
  expect_box_contact(kTurned, {1.2, 0.9, 0.9}, 0.7, Vec3{1, 2, 2} * (real(1) / 3), {1, 0.5, 0.5}, -0.1);
  expect_box_contact(kTurned, {0.9, 0.1, 0.2}, 0.1, {1, 0, 0}, {1, 0.1, 0.2}, -0.2);
}

TEST(SphereBox, BoxWithLargerGidIsBodyB) {
  const Side box_side{9, 2};
  ShapeScene scene = sphere_scene(kAxisAligned.center + Vec3{1.5, 0.5, 0.5}, 0.75, kProbe);
  scene.boxes.push_back({box_side.gid, box_side.shape, kAxisAligned.center, kAxisAligned.half, kIdentity});
  const Vec3 on_box = kAxisAligned.center + Vec3{1, 0.5, 0.5};
  const Vec3 on_sphere = kAxisAligned.center + Vec3{0.75, 0.5, 0.5};
  expect_single_contact(detect(scene), swapped({box_side, kProbe, -0.25, {1, 0, 0}, on_box, on_sphere}));
}

TEST(SphereBox, KilometreLongWallDoesNotInflateTheBinGrid) {
  // A container wall 1000 m x 0.1 m x 10 m whose face y = 0 bounds a 10 m cube of 1000 small
  // spheres. Boxes are not binned; if the grid spanned the wall it would need 5000 bins of
  // 0.2 m along x alone.
  const Side wall{0, 0};
  ShapeScene scene;
  scene.boxes.push_back({wall.gid, wall.shape, {0, -0.05, 5}, {500, 0.05, 5}, kIdentity});
  std::mt19937_64 rng(51);
  std::uniform_real_distribution<real> unit(0, 10);
  const real r = 0.1;
  for (GlobalId g = 1; g <= 990; ++g) scene.spheres.add({unit(rng), unit(rng), unit(rng)}, r, g, 0);
  for (GlobalId g = 991; g <= 1000; ++g) scene.spheres.add({unit(rng), r, unit(rng)}, r, g, 0);  // resting on it

  CollisionSettings settings;
  settings.envelope = 0.01;
  CollisionDetector detector(settings);
  const ContactList c = detector.detect(scene);
  const auto& bins = detector.last_stats().bins_per_axis;
  EXPECT_LT(static_cast<double>(bins[0]) * bins[1] * bins[2], 1e6);

  // Every centre is above the face and within its x, z extent: distance = y - r.
  std::size_t expected = 0, found = 0;
  for (std::size_t i = 0; i < scene.spheres.size(); ++i)
    if (scene.spheres.y[i] - r <= settings.envelope) ++expected;
  for (std::size_t k = 0; k < c.size(); ++k) {
    if (c.gid_a[k] != wall.gid) continue;
    ++found;
    const std::size_t i = c.gid_b[k] - 1;
    const Vec3 center{scene.spheres.x[i], scene.spheres.y[i], scene.spheres.z[i]};
    EXPECT_NEAR(c.distance[k], center.y - r, kTolerance);
    EXPECT_TRUE(near(c.normal(k), {0, 1, 0}));
    EXPECT_TRUE(near(c.point_a(k), {center.x, 0, center.z}));
  }
  EXPECT_GE(expected, 10u);
  EXPECT_EQ(found, expected);
}

// ------------------------------------------------------------------------------------------
// 6. Compound bodies: two 5x5 plates of unit spheres (spacing 1, so neighbours within a plate
// touch exactly and would collide were they separate bodies), one 0.9 above the other: each
// sphere meets only the one straight above it, 0.1 deep; sphere 11 (i = 1, j = 2) 0.15 deep.
// Across the diagonal the gap is sqrt(1 + 0.81) - 1 = 0.345, so there are exactly 25 contacts.

constexpr GlobalId kLowerPlate = 3, kUpperPlate = 9;
constexpr ShapeIndex kDeepest = 11;
constexpr int kPlateSide = 5;
constexpr real kPlateSize = kPlateSide - 1;

ShapeScene two_plates() {
  ShapeScene scene;
  for (int k = 0; k < kPlateSide * kPlateSide; ++k)
    scene.spheres.add({real(k % kPlateSide), real(k / kPlateSide), 0}, 0.5, kLowerPlate, k);
  for (int k = 0; k < kPlateSide * kPlateSide; ++k)
    scene.spheres.add({real(k % kPlateSide), real(k / kPlateSide), k == kDeepest ? 0.85 : 0.9}, 0.5, kUpperPlate, k);
  return scene;
}

CollisionSettings cap(std::uint32_t max_per_pair) {
  CollisionSettings s;
  s.max_contacts_per_body_pair = max_per_pair;
  return s;
}

Vec3 midpoint(const ContactList& c, std::size_t i) { return real(0.5) * (c.point_a(i) + c.point_b(i)); }

/// The kept contacts must be a spread-out subset of the full list, led by the deepest:
/// farthest-point sampling of 8 points on a 5x5 unit lattice keeps them >= 2 apart whatever the
/// tie-break (enumerated offline) and spans the lattice; we ask for 60% of the plate in x and y.
void expect_spread_subset(const ContactList& full, const ContactList& kept, std::size_t count, ShapeIndex deepest) {
  ASSERT_EQ(kept.size(), count);
  bool has_deepest = false;
  real lo_x = 1e9, hi_x = -1e9, lo_y = 1e9, hi_y = -1e9, closest = 1e9;
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (i > 0) {
      EXPECT_LT(kept.shape_b[i - 1], kept.shape_b[i]) << "kept contacts are in key order";
    }
    // Same contact, bit for bit, as in the unreduced list.
    const std::size_t j = std::find(full.shape_b.begin(), full.shape_b.end(), kept.shape_b[i]) - full.shape_b.begin();
    ASSERT_LT(j, full.size());
    EXPECT_EQ(kept.gid_a[i], full.gid_a[j]);
    EXPECT_EQ(kept.gid_b[i], full.gid_b[j]);
    EXPECT_EQ(kept.shape_a[i], full.shape_a[j]);
    EXPECT_EQ(kept.distance[i], full.distance[j]);
    for (auto field : {&ContactList::normal, &ContactList::point_a, &ContactList::point_b})
      EXPECT_TRUE(near((kept.*field)(i), (full.*field)(j), 0)) << "contact " << kept.shape_b[i];
    has_deepest = has_deepest || kept.shape_b[i] == deepest;
    const Vec3 m = midpoint(kept, i);
    lo_x = std::min(lo_x, m.x), hi_x = std::max(hi_x, m.x);
    lo_y = std::min(lo_y, m.y), hi_y = std::max(hi_y, m.y);
    for (std::size_t k = 0; k < i; ++k) closest = std::min(closest, length(m - midpoint(kept, k)));
  }
  EXPECT_TRUE(has_deepest) << "the deepest contact must survive the cap";
  EXPECT_GE(hi_x - lo_x, 0.6 * kPlateSize);
  EXPECT_GE(hi_y - lo_y, 0.6 * kPlateSize);
  EXPECT_GE(closest, 2 - 1e-9) << "two kept contacts are closer than farthest-point sampling allows";
}

TEST(CompoundBodies, SpheresOfOneBodyNeverCollide) {
  ShapeScene scene = two_plates();
  scene.spheres.x.resize(25), scene.spheres.y.resize(25), scene.spheres.z.resize(25);
  scene.spheres.radius.resize(25), scene.spheres.body_gid.resize(25), scene.spheres.shape_index.resize(25);
  EXPECT_EQ(detect(scene, cap(0)).size(), 0u) << "40 touching neighbours inside one plate";
}

TEST(CompoundBodies, FaceToFacePlatesWithoutCapGiveAllTwentyFive) {
  const ContactList c = detect(two_plates(), cap(0));
  ASSERT_EQ(c.size(), 25u);
  for (std::size_t k = 0; k < c.size(); ++k) {
    const ShapeIndex s = static_cast<ShapeIndex>(k);
    const real x = real(k % kPlateSide), y = real(k / kPlateSide);
    const real top = s == kDeepest ? 0.85 : 0.9;
    expect_contact(c, k, {{kLowerPlate, s}, {kUpperPlate, s}, top - 1, {0, 0, 1}, {x, y, 0.5}, {x, y, top - 0.5}});
  }
}

TEST(CompoundBodies, DefaultCapKeepsEightSpreadOutContactsWithTheDeepest) {
  const ContactList full = detect(two_plates(), cap(0));
  CollisionDetector detector;  // default settings: at most 8 per body pair
  ASSERT_EQ(detector.settings().max_contacts_per_body_pair, 8u);
  const ContactList kept = detector.detect(two_plates());
  expect_spread_subset(full, kept, 8, kDeepest);
  EXPECT_EQ(detector.last_stats().contacts_before_reduction, 25u);
  EXPECT_EQ(detector.last_stats().contacts, 8u);

  const ContactList three = detect(two_plates(), cap(3));
  ASSERT_EQ(three.size(), 3u);
  EXPECT_TRUE(std::count(three.shape_b.begin(), three.shape_b.end(), kDeepest) == 1);
}

TEST(CompoundBodies, CapChoiceIsRepeatableAndThreadCountIndependent) {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  CollisionDetector detector;
  const ContactList first = detector.detect(two_plates());
  EXPECT_TRUE(bitwise_equal(first, detector.detect(two_plates()))) << "second call, same detector";
  omp_set_num_threads(2);
  EXPECT_TRUE(bitwise_equal(first, detector.detect(two_plates()))) << "2 threads";
  EXPECT_TRUE(bitwise_equal(first, detect(two_plates()))) << "2 threads, fresh detector";
  omp_set_num_threads(saved);
}

TEST(CompoundBodies, PlateRestingOnAPlaneIsCappedAtEight) {
  // One plate 0.05 into the floor, sphere 7 (i = 2, j = 1) 0.1 into it.
  ShapeScene scene;
  for (int k = 0; k < kPlateSide * kPlateSide; ++k)
    scene.spheres.add({real(k % kPlateSide), real(k / kPlateSide), k == 7 ? 0.4 : 0.45}, 0.5, kUpperPlate, k);
  scene.planes.push_back(kFloor);
  const ContactList full = detect(scene, cap(0));
  ASSERT_EQ(full.size(), 25u);
  for (std::size_t k = 0; k < full.size(); ++k) EXPECT_NEAR(full.distance[k], k == 7 ? -0.1 : -0.05, kTolerance);
  expect_spread_subset(full, detect(scene), 8, 7);
}

TEST(CompoundBodies, SmallContactSetsAreKeptWhole) {
  // A ball in the lower plate's plane, centred between four of its spheres (sqrt(0.5) from
  // each), 0.01 into each of them; the upper plate is sqrt(0.5 + 0.81) away, out of reach.
  ShapeScene scene = two_plates();
  const GlobalId ball = 100;
  scene.spheres.add({1.5, 1.5, 0}, std::sqrt(real(0.5)) - real(0.5) + real(0.01), ball, 0);
  const ContactList c = detect(scene);
  std::size_t with_ball = 0;
  for (std::size_t k = 0; k < c.size(); ++k) {
    if (c.gid_b[k] != ball) continue;
    ++with_ball;
    EXPECT_EQ(c.gid_a[k], kLowerPlate);
    EXPECT_NEAR(c.distance[k], -0.01, kTolerance);
  }
  EXPECT_EQ(with_ball, 4u);
  EXPECT_EQ(c.size(), 8u + 4u) << "8 between the plates, 4 with the ball";
}

// ------------------------------------------------------------------------------------------
// 7. Bin grids with more than 2^32 bins: nothing may be sized or indexed by a 32-bit bin id.

struct PairDistance {
  GlobalId a, b;
  real distance;
};

void expect_exactly(const ContactList& c, const std::vector<PairDistance>& want) {
  ASSERT_EQ(c.size(), want.size());
  for (std::size_t k = 0; k < want.size(); ++k) {
    EXPECT_EQ(c.gid_a[k], want[k].a);
    EXPECT_EQ(c.gid_b[k], want[k].b);
    EXPECT_EQ(c.distance[k], want[k].distance) << "exact binary fractions give exact distances";
  }
}

/// Two clusters `far` apart along every axis, each with two contacts and one near miss; all
/// coordinates are short binary fractions, so contact distances are exact.
ShapeScene distant_clusters(Vec3 far) {
  ShapeScene scene;
  SphereShapes& s = scene.spheres;
  s.add({0, 0, 0}, 0.5, 1, 0);
  s.add({1, 0, 0}, 0.5, 2, 0);    // touches 1
  s.add({0, 0, 0.5}, 0.5, 3, 0);  // 0.5 into 1; sqrt(1.25) - 1 = 0.118 from 2
  s.add(far, 0.5, 4, 0);
  s.add(far + Vec3{0, 0.75, 0}, 0.25, 5, 0);  // touches 4
  s.add(far + Vec3{1, 0, 0}, 0.5, 6, 0);      // touches 4; 1.25 - 0.75 = 0.5 from 5
  return scene;
}

const std::vector<PairDistance> kClusterContacts{{1, 2, 0}, {1, 3, -0.5}, {4, 5, 0}, {4, 6, 0}};

TEST(HugeBinGrid, MoreThanTwoToThe32BinsStillFindsExactContacts) {
  CollisionSettings settings;
  settings.bin_size = 1.0;
  CollisionDetector detector(settings);
  const ContactList c = detector.detect(distant_clusters({1e4, 1e4, 1e4}));
  const auto& bins = detector.last_stats().bins_per_axis;
  EXPECT_GT(static_cast<double>(bins[0]) * bins[1] * bins[2], std::ldexp(1.0, 32));
  expect_exactly(c, kClusterContacts);
}

TEST(HugeBinGrid, AxisLongerThanTheBinKeyRangeStillFindsExactContacts) {
  // 10^7 bins of 1 m along each axis would not fit any per-axis bin coordinate of 21..23 bits.
  CollisionSettings settings;
  settings.bin_size = 1.0;
  expect_exactly(detect(distant_clusters({1e7, 1e7, 1e7}), settings), kClusterContacts);
}

// ------------------------------------------------------------------------------------------
// 8. Bad input is refused with a message naming the shape; degenerate scenes are not errors.

ShapeScene five_good_spheres() {
  ShapeScene scene;
  for (int i = 0; i < 5; ++i) scene.spheres.add({3 * real(i), 0, 0}, 0.5, 10 + i, 0);
  return scene;
}

void expect_rejected(const ShapeScene& scene, const std::vector<std::string>& words) {
  try {
    detect(scene);
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    for (const std::string& w : words) EXPECT_NE(what.find(w), std::string::npos) << "'" << what << "' lacks " << w;
  }
}

TEST(BadInput, NonFiniteSphereCentre) {
  ShapeScene scene = five_good_spheres();
  scene.spheres.y[3] = std::numeric_limits<real>::quiet_NaN();
  expect_rejected(scene, {"sphere 3"});
  scene.spheres.y[3] = 0;
  scene.spheres.z[3] = std::numeric_limits<real>::infinity();
  expect_rejected(scene, {"sphere 3"});
  scene.spheres.z[3] = 0;
  scene.spheres.x[3] = -std::numeric_limits<real>::infinity();
  expect_rejected(scene, {"sphere 3"});
}

TEST(BadInput, NonPositiveRadius) {
  ShapeScene scene = five_good_spheres();
  scene.spheres.radius[3] = 0;
  expect_rejected(scene, {"sphere 3", "radius"});
  scene.spheres.radius[3] = -1;
  expect_rejected(scene, {"sphere 3", "radius"});
  scene.spheres.radius[3] = std::numeric_limits<real>::quiet_NaN();
  expect_rejected(scene, {"sphere 3", "radius"});
}

TEST(BadInput, ZeroPlaneNormal) {
  ShapeScene scene = five_good_spheres();
  scene.planes = {kFloor, {1, 0, {0, 0, 0}, {0, 0, 0}}};
  expect_rejected(scene, {"plane 1", "normal"});
}

TEST(BadInput, BoxWithoutVolume) {
  ShapeScene scene = five_good_spheres();
  const BoxShape good{1, 0, {0, 0, 0}, {1, 1, 1}, kIdentity};
  BoxShape flat = good;
  flat.half_extents.y = 0;
  scene.boxes = {good, flat};
  expect_rejected(scene, {"box 1", "extent"});
  scene.boxes[1].half_extents.y = -0.5;
  expect_rejected(scene, {"box 1", "extent"});
}

TEST(BadInput, DegenerateScenesGiveNoContacts) {
  CollisionDetector detector;
  EXPECT_EQ(detector.detect(ShapeScene{}).size(), 0u);
  EXPECT_EQ(detector.last_stats().contacts, 0u);

  ShapeScene statics;
  statics.planes = {kFloor};
  statics.boxes = {{1, 0, {0, 0, 0}, {1, 1, 1}, kIdentity}};  // overlaps the floor: not a contact
  EXPECT_EQ(detector.detect(statics).size(), 0u);

  EXPECT_EQ(detector.detect(sphere_scene({0, 0, 5}, 0.5, kBall)).size(), 0u);
}

// A boulder 1000 times the grain size would put millions of bin entries in the grid: refused
// with a message naming it, unless the user chooses bins to match it.
TEST(BadInput, SphereFarLargerThanTheBinsIsRefusedByName) {
  ShapeScene scene;
  for (int i = 0; i < 100; ++i) scene.spheres.add({0.02 * real(i % 10), 0.02 * real(i / 10), 0}, 0.0101, i, 0);
  scene.spheres.add({0.1, 0.1, 20.0}, 10.0, 777, 0);
  expect_rejected(scene, {"sphere 100", "gid 777", "bins", "bin_size"});

  CollisionSettings coarse;
  coarse.bin_size = 2.0;
  CollisionDetector detector(coarse);
  EXPECT_EQ(detector.detect(scene).size(), 90u + 90u);  // the grains' lattice neighbours, overlapping
}

}  // namespace
}  // namespace trackcosim::gpu
