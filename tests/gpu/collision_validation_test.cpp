// Validation of the binned collision detector against a plain all-pairs loop.
//
// The broad phase is where a detector silently loses contacts: a pair split across a bin face,
// an envelope that pads one side only, a midpoint rule that lets two bins both skip a pair.
// None of that shows in a handful of hand-made cases, so here the detector must reproduce,
// pair for pair and to 1e-12, what an O(n^2) loop over the sphere-sphere formula finds in
// random packings of 10^3..10^5 spheres salted with the hard cases. The same scenes then check
// that the list does not depend on the thread count or on the bin size.

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <compare>
#include <cstdint>
#include <cstring>
#include <numbers>
#include <numeric>
#include <optional>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/collision/collision_detector.h"
#include "gpu/memory/transfer_count.h"

namespace trackcosim::gpu {
namespace {

constexpr real kTolerance = 1e-12;
// A power of two, so that "gap == envelope" below is an exact boundary case, not a rounding one.
constexpr real kEnvelope = 0.0625;
// Radii uniform in [0.25, 1] (1:4). With E[(ri + rj)^3] = 2.3 a sphere meets on average
// density * 4/3 pi * 2.3 = 3.4 others: a few contacts each, as in a settled packing.
constexpr real kMinRadius = 0.25, kMaxRadius = 1.0;
constexpr real kSpheresPerCubicMetre = 0.35;
// Large body ids, so that an id squeezed through 32 bits anywhere changes the result.
constexpr GlobalId kFirstGid = GlobalId{1} << 40;

// ------------------------------------------------------------------------------------------
// The reference: the contact formulas of the contact_list.h conventions, written out plainly.

struct ContactKey {
  GlobalId gid_a, gid_b;
  ShapeIndex shape_a, shape_b;
  auto operator<=>(const ContactKey&) const = default;
};

ContactKey key_of(const ContactList& list, std::size_t i) {
  return {list.gid_a[i], list.gid_b[i], list.shape_a[i], list.shape_b[i]};
}

std::string describe(const ContactKey& k) {
  std::ostringstream s;
  s << "(gid_a " << k.gid_a << ", gid_b " << k.gid_b << ", shape_a " << k.shape_a << ", shape_b " << k.shape_b
    << ")";
  return s.str();
}

struct ReferenceContact {
  ContactKey key;
  real distance;
  Vec3 normal, point_a, point_b;
};

Vec3 center_of(const SphereShapes& s, std::size_t i) { return {s.x[i], s.y[i], s.z[i]}; }

/// Sphere a (the smaller body gid) against sphere b: n = d/|d|, +Z when the centres coincide.
ReferenceContact sphere_pair(const SphereShapes& s, std::size_t a, std::size_t b) {
  const Vec3 ca = center_of(s, a), cb = center_of(s, b);
  const real ra = s.radius[a], rb = s.radius[b];
  const Vec3 d = cb - ca;
  const real len = std::sqrt(dot(d, d));
  const Vec3 n = len == 0 ? Vec3{0, 0, 1} : Vec3{d.x / len, d.y / len, d.z / len};
  return {{s.body_gid[a], s.body_gid[b], s.shape_index[a], s.shape_index[b]},
          len - ra - rb,
          n,
          ca + ra * n,
          cb - rb * n};
}

/// Every pair of spheres of different bodies, O(n^2). The two rejections only skip pairs whose
/// centres are farther apart than ra + rb + envelope plus 1e-9, a margin far above rounding, so
/// they never drop a pair the exact test would keep.
std::vector<ReferenceContact> all_pairs_reference(const SphereShapes& s, real envelope) {
  const std::int64_t n = static_cast<std::int64_t>(s.size());
  if (n == 0) return {};
  const real margin = 1e-9;
  const real max_reach = 2 * *std::max_element(s.radius.begin(), s.radius.end()) + envelope + margin;
  std::vector<std::vector<ReferenceContact>> per_thread(omp_get_max_threads());
#pragma omp parallel
  {
    std::vector<ReferenceContact>& found = per_thread[omp_get_thread_num()];
#pragma omp for schedule(dynamic, 128)
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t j = i + 1; j < n; ++j) {
        const real dx = s.x[j] - s.x[i];
        if (std::fabs(dx) > max_reach) continue;
        const real dy = s.y[j] - s.y[i], dz = s.z[j] - s.z[i];
        const real reach = s.radius[i] + s.radius[j] + envelope + margin;
        if (dx * dx + dy * dy + dz * dz > reach * reach) continue;
        if (s.body_gid[i] == s.body_gid[j]) continue;
        const bool i_is_a = s.body_gid[i] < s.body_gid[j];
        const ReferenceContact c = sphere_pair(s, i_is_a ? i : j, i_is_a ? j : i);
        if (c.distance <= envelope) found.push_back(c);
      }
    }
  }
  std::vector<ReferenceContact> all;
  for (auto& part : per_thread) all.insert(all.end(), part.begin(), part.end());
  std::sort(all.begin(), all.end(), [](const auto& l, const auto& r) { return l.key < r.key; });
  return all;
}

// ------------------------------------------------------------------------------------------
// Comparisons that say what differs, not just that something does.

::testing::AssertionResult is_canonically_ordered(const ContactList& list) {
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!(list.gid_a[i] < list.gid_b[i]))
      return ::testing::AssertionFailure() << "contact " << i << " has gid_a >= gid_b " << describe(key_of(list, i));
    if (i > 0 && !(key_of(list, i - 1) < key_of(list, i)))
      return ::testing::AssertionFailure() << "contacts " << i - 1 << ", " << i << " out of order or repeated: "
                                           << describe(key_of(list, i - 1)) << " then " << describe(key_of(list, i));
  }
  return ::testing::AssertionSuccess();
}

/// First few keys in one sorted sequence and not the other, to name a missed or invented pair.
std::string key_differences(const ContactList& got, const std::vector<ReferenceContact>& want) {
  std::vector<ContactKey> got_keys(got.size()), want_keys(want.size()), missing, extra;
  for (std::size_t i = 0; i < got.size(); ++i) got_keys[i] = key_of(got, i);
  for (std::size_t i = 0; i < want.size(); ++i) want_keys[i] = want[i].key;
  std::sort(got_keys.begin(), got_keys.end());
  std::set_difference(want_keys.begin(), want_keys.end(), got_keys.begin(), got_keys.end(),
                      std::back_inserter(missing));
  std::set_difference(got_keys.begin(), got_keys.end(), want_keys.begin(), want_keys.end(),
                      std::back_inserter(extra));
  std::ostringstream s;
  s << missing.size() << " missing, " << extra.size() << " not in the reference.";
  for (std::size_t i = 0; i < std::min<std::size_t>(missing.size(), 5); ++i) s << "\n  missing " << describe(missing[i]);
  for (std::size_t i = 0; i < std::min<std::size_t>(extra.size(), 5); ++i) s << "\n  extra   " << describe(extra[i]);
  return s.str();
}

bool near(Vec3 a, Vec3 b, real tol) {
  return std::fabs(a.x - b.x) <= tol && std::fabs(a.y - b.y) <= tol && std::fabs(a.z - b.z) <= tol;
}

::testing::AssertionResult matches_reference(const ContactList& got, const std::vector<ReferenceContact>& want) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure() << got.size() << " contacts, reference has " << want.size() << ": "
                                         << key_differences(got, want);
  for (std::size_t i = 0; i < want.size(); ++i) {
    const ReferenceContact& w = want[i];
    if (key_of(got, i) != w.key)
      return ::testing::AssertionFailure() << "contact " << i << " is " << describe(key_of(got, i)) << ", reference "
                                           << describe(w.key) << ": " << key_differences(got, want);
    const bool same_geometry = std::fabs(got.distance[i] - w.distance) <= kTolerance &&
                               near(got.normal(i), w.normal, kTolerance) &&
                               near(got.point_a(i), w.point_a, kTolerance) &&
                               near(got.point_b(i), w.point_b, kTolerance);
    if (!same_geometry)
      return ::testing::AssertionFailure() << "contact " << describe(w.key) << " differs: distance " << got.distance[i]
                                           << " vs " << w.distance << ", normal (" << got.nx[i] << ", " << got.ny[i]
                                           << ", " << got.nz[i] << ") vs (" << w.normal.x << ", " << w.normal.y
                                           << ", " << w.normal.z << ")";
  }
  return ::testing::AssertionSuccess();
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

/// Field by field, bit for bit (so -0.0 vs 0.0 or a last-ulp difference counts).
::testing::AssertionResult bitwise_equal(const ContactList& a, const ContactList& b) {
  const std::pair<const char*, bool> fields[] = {
      {"gid_a", same_bits(a.gid_a, b.gid_a)},       {"gid_b", same_bits(a.gid_b, b.gid_b)},
      {"shape_a", same_bits(a.shape_a, b.shape_a)}, {"shape_b", same_bits(a.shape_b, b.shape_b)},
      {"distance", same_bits(a.distance, b.distance)}, {"nx", same_bits(a.nx, b.nx)},
      {"ny", same_bits(a.ny, b.ny)},                {"nz", same_bits(a.nz, b.nz)},
      {"ax", same_bits(a.ax, b.ax)},                {"ay", same_bits(a.ay, b.ay)},
      {"az", same_bits(a.az, b.az)},                {"bx", same_bits(a.bx, b.bx)},
      {"by", same_bits(a.by, b.by)},                {"bz", same_bits(a.bz, b.bz)}};
  for (const auto& [name, same] : fields)
    if (!same) return ::testing::AssertionFailure() << "field " << name << " differs (sizes " << a.size() << ", " << b.size() << ")";
  return ::testing::AssertionSuccess();
}

/// Sets the OpenMP thread count for one scope; Thrust's OpenMP backend reads it per call.
class ThreadCount {
 public:
  explicit ThreadCount(int n) : saved_(omp_get_max_threads()) { omp_set_num_threads(n); }
  ~ThreadCount() { omp_set_num_threads(saved_); }
  ThreadCount(const ThreadCount&) = delete;
  ThreadCount& operator=(const ThreadCount&) = delete;

 private:
  int saved_;
};

// ------------------------------------------------------------------------------------------
// Scenes.

/// Spheres placed uniformly in a cube sized for kSpheresPerCubicMetre, corner at the origin.
/// Overlaps are allowed: the detector must cope with any input, not just settled packings.
void add_random_spheres(SphereShapes& s, std::size_t n, std::mt19937_64& rng) {
  const real side = std::cbrt(static_cast<real>(n) / kSpheresPerCubicMetre);
  std::uniform_real_distribution<real> position(0, side), radius(kMinRadius, kMaxRadius);
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3 c{position(rng), position(rng), position(rng)};
    s.add(c, radius(rng), 0, 0);
  }
}

/// A hand-made pair whose distance is known; `exact` when every value is a short binary
/// fraction, so the detector must get it bit for bit (touching means distance 0, not 1e-17).
struct ExpectedPair {
  std::size_t a, b;  ///< sphere indices in the scene
  real distance;
  bool exact;
};

/// The cases random placement almost never produces, all at x < -3 so the random cube (x >= -1
/// counting radii) cannot touch them. Pairs sit 5 m apart so that only the intended spheres meet.
class HardCases {
 public:
  explicit HardCases(SphereShapes& s) : s_(s) {}

  void build() {
    // Touching along each axis and in the negative direction: distance exactly 0.
    pair(0.5, 0.25, {0.75, 0, 0}, 0);
    pair(0.5, 0.25, {0, 0.75, 0}, 0);
    pair(0.75, 0.25, {0, 0, 1}, 0);
    pair(0.5, 0.5, {-1, 0, 0}, 0);
    // Deep overlap, a sphere nested in another, concentric spheres (normal +Z by convention).
    pair(1.0, 0.5, {0.25, 0, 0}, -1.25);
    pair(1.0, 0.25, {0, 0.5, 0}, -0.75);
    pair(1.0, 0.5, {0, 0, 0}, -1.5);
    pair(0.5, 0.5, {0, 0, 0}, -1.0);
    // A small sphere near the centre of a big one: the midpoint of the two contact points lies
    // outside the small sphere, so a bin-ownership rule built on it can lose the pair.
    pair(1.0, 0.125, {0, 0, 0}, -1.125);
    pair(1.0, 0.25, {0.0625, 0, 0}, -1.1875);
    pair(1.0, 0.25, {0, -0.0625, 0}, -1.1875);
    pair(0.25, 1.0, {0, 0, 0.0625}, -1.1875);
    // Gaps of 1/32 and 1/16 (= kEnvelope) are reported with the envelope; 1/16 + 2^-20 and 3/32
    // are not, whatever the envelope of this test.
    pair(0.5, 0.25, {0.78125, 0, 0}, 0.03125);
    pair(0.5, 0.25, {0, 0.8125, 0}, 0.0625);
    pair(0.5, 0.25, {0.8125 + std::ldexp(1.0, -20), 0, 0}, 0.0625 + std::ldexp(1.0, -20));
    pair(0.5, 0.25, {0, 0, 0.84375}, 0.09375);
    // Near-contacts across bin edges and corners: the envelope padding must hold diagonally.
    const real diagonal_gap = 0.75 * kEnvelope;
    const real s2 = std::sqrt(real(0.5)), s3 = std::sqrt(real(1) / 3);
    pair_inexact(0.5, 0.5, (1 + diagonal_gap) * Vec3{s2, s2, 0}, diagonal_gap);
    pair_inexact(0.5, 0.5, (1 + diagonal_gap) * Vec3{s3, -s3, s3}, diagonal_gap);
    pair_inexact(0.3, 0.7, -(1 + diagonal_gap) * Vec3{s3, s3, s3}, diagonal_gap);
    // Chains of unit spheres on a unit lattice: with bin_size 1 every centre (integer chain) or
    // every contact point (half-integer chain) sits at one phase of the grid, so if one is on a
    // face all are. (The grid origin is the padded lower corner of all spheres and is not
    // exposed, so no test can put a point exactly on a face; the phases below get close.)
    chain({-40, 12, 12}, {1, 0, 0}, 8);
    chain({-40.5, 14.5, 14.5}, {0, 1, 0}, 8);
    chain({-30, 12, 20}, {0, 0, 1}, 8);
    // Touching pairs at 16 phases of a unit bin: whatever the grid origin, some contact points
    // lie within 1/32 of a face.
    for (int k = 0; k < 16; ++k) {
      const Vec3 a{-20 + k / real(16), 30, 3 + 3 * real(k)};
      add_exact_pair(a, 0.5, a + Vec3{1, 0, 0}, 0.5, 0);
    }
  }

  const std::vector<ExpectedPair>& pairs() const { return pairs_; }

 private:
  Vec3 next_slot() {
    const int k = slot_++;
    return {-8 - 5 * real(k % 6), 3 + 5 * real(k / 6), 5};
  }
  void pair(real ra, real rb, Vec3 offset, real distance) {
    const Vec3 a = next_slot();
    add_exact_pair(a, ra, a + offset, rb, distance);
  }
  void pair_inexact(real ra, real rb, Vec3 offset, real distance) {
    const Vec3 a = next_slot();
    add_pair(a, ra, a + offset, rb, distance, false);
  }
  void chain(Vec3 start, Vec3 step, int count) {
    for (int k = 0; k + 1 < count; ++k) {
      const Vec3 a = start + real(k) * step;
      if (k == 0) s_.add(a, 0.5, 0, 0);
      s_.add(a + step, 0.5, 0, 0);
      pairs_.push_back({s_.size() - 2, s_.size() - 1, 0, true});
    }
  }
  void add_exact_pair(Vec3 a, real ra, Vec3 b, real rb, real distance) { add_pair(a, ra, b, rb, distance, true); }
  void add_pair(Vec3 a, real ra, Vec3 b, real rb, real distance, bool exact) {
    s_.add(a, ra, 0, 0);
    s_.add(b, rb, 0, 0);
    pairs_.push_back({s_.size() - 2, s_.size() - 1, distance, exact});
  }

  SphereShapes& s_;
  std::vector<ExpectedPair> pairs_;
  int slot_ = 0;
};

/// Gives sphere i the body id kFirstGid + perm[i] for a random permutation, so that id order,
/// memory order and position order all differ.
void assign_shuffled_gids(SphereShapes& s, std::mt19937_64& rng) {
  std::vector<GlobalId> ids(s.size());
  std::iota(ids.begin(), ids.end(), kFirstGid);
  std::shuffle(ids.begin(), ids.end(), rng);
  s.body_gid = ids;
}

struct ValidationScene {
  ShapeScene scene;
  std::vector<ExpectedPair> hard_pairs;
};

ValidationScene random_scene_with_hard_cases(std::size_t random_spheres, std::uint64_t seed) {
  ValidationScene v;
  std::mt19937_64 rng(seed);
  add_random_spheres(v.scene.spheres, random_spheres, rng);
  HardCases hard(v.scene.spheres);
  hard.build();
  v.hard_pairs = hard.pairs();
  assign_shuffled_gids(v.scene.spheres, rng);
  return v;
}

std::optional<std::size_t> find_pair(const ContactList& list, const SphereShapes& s, std::size_t i, std::size_t j) {
  const GlobalId a = std::min(s.body_gid[i], s.body_gid[j]), b = std::max(s.body_gid[i], s.body_gid[j]);
  for (std::size_t k = 0; k < list.size(); ++k)
    if (list.gid_a[k] == a && list.gid_b[k] == b) return k;
  return std::nullopt;
}

// ------------------------------------------------------------------------------------------
// 1. Binned detector == O(n^2) reference.

struct ReferenceCase {
  std::size_t random_spheres;
  std::uint64_t seed;
  real envelope;
  real bin_size;  ///< 0 = automatic; 1 lines the lattice chains up with bin faces; 0.25 < any radius
  const char* name;
};

void PrintTo(const ReferenceCase& c, std::ostream* os) { *os << c.name; }

class MatchesAllPairsReference : public ::testing::TestWithParam<ReferenceCase> {};

TEST_P(MatchesAllPairsReference, SameContactsAndGeometry) {
  const ReferenceCase& c = GetParam();
  const ValidationScene v = random_scene_with_hard_cases(c.random_spheres, c.seed);
  const SphereShapes& s = v.scene.spheres;

  CollisionSettings settings;
  settings.envelope = c.envelope;
  settings.bin_size = c.bin_size;
  CollisionDetector detector(settings);
  const ContactList got = detector.detect(v.scene);
  const std::vector<ReferenceContact> want = all_pairs_reference(s, c.envelope);

  // A packing with "a few contacts per sphere", or the comparison proves little.
  EXPECT_GT(want.size(), c.random_spheres) << "scene too sparse to exercise the broad phase";
  EXPECT_LT(want.size(), 5 * c.random_spheres) << "scene denser than intended";
  EXPECT_TRUE(is_canonically_ordered(got));
  EXPECT_TRUE(matches_reference(got, want));
  EXPECT_EQ(detector.last_stats().contacts, got.size());

  // The hard cases against their hand-computed distances (not only against the reference).
  for (const ExpectedPair& p : v.hard_pairs) {
    const std::optional<std::size_t> k = find_pair(got, s, p.a, p.b);
    const bool expected = p.distance <= c.envelope;
    ASSERT_EQ(k.has_value(), expected) << "spheres " << p.a << ", " << p.b << " at distance " << p.distance
                                       << " with envelope " << c.envelope;
    if (!k) continue;
    if (p.exact)
      EXPECT_EQ(got.distance[*k], p.distance) << "spheres " << p.a << ", " << p.b;
    else
      EXPECT_NEAR(got.distance[*k], p.distance, kTolerance) << "spheres " << p.a << ", " << p.b;
  }
}

// 10^5 spheres: the reference loop is ~5e9 pair visits, a few seconds on 2 cores in Release.
INSTANTIATE_TEST_SUITE_P(
    RandomPackings, MatchesAllPairsReference,
    ::testing::Values(ReferenceCase{1000, 11, 0, 1.0, "n1e3_touching_only_unit_bins"},
                      ReferenceCase{1000, 12, kEnvelope, 0, "n1e3_envelope_auto_bins"},
                      ReferenceCase{10000, 13, kEnvelope, 1.0, "n1e4_envelope_unit_bins"},
                      ReferenceCase{10000, 14, 0, 0.25, "n1e4_touching_only_quarter_bins"},
                      ReferenceCase{100000, 15, kEnvelope, 0, "n1e5_envelope_auto_bins"}),
    [](const ::testing::TestParamInfo<ReferenceCase>& info) { return std::string(info.param.name); });

// ------------------------------------------------------------------------------------------
// Shared by 2 and 3: a terrain-like scene with every shape kind and compound bodies.

/// Spheres in a walled box: single spheres, clumps of 2-4 and a few 5x5 plates resting on the
/// floor (25 floor contacts each, so the per-pair cap has work). Walls and boxes get ids both
/// below and above the spheres' so that both A/B orders occur.
ShapeScene mixed_scene(std::size_t approx_spheres, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const real side = std::cbrt(static_cast<real>(approx_spheres) / kSpheresPerCubicMetre);
  std::uniform_real_distribution<real> unit(0, 1), radius(kMinRadius, kMaxRadius);
  ShapeScene scene;
  SphereShapes& s = scene.spheres;
  GlobalId gid = 100;
  auto random_point = [&] { return Vec3{side * unit(rng), side * unit(rng), side * unit(rng)}; };
  while (s.size() < approx_spheres) {
    const real kind = unit(rng);
    if (kind < 0.6) {
      s.add(random_point(), radius(rng), gid, 0);
    } else if (kind < 0.99) {
      const Vec3 c = random_point();
      const int members = 2 + static_cast<int>(3 * unit(rng));
      for (int m = 0; m < members; ++m)
        s.add(c + Vec3{unit(rng) - 0.5, unit(rng) - 0.5, unit(rng) - 0.5}, 0.5 * radius(rng), gid, m);
    } else {
      const Vec3 corner{side * unit(rng), side * unit(rng), 0.4 + 0.05 * unit(rng)};
      for (int k = 0; k < 25; ++k)
        s.add(corner + Vec3{0.8 * (k % 5), 0.8 * (k / 5), 0.02 * unit(rng)}, 0.45, gid, k);
    }
    ++gid;
  }
  const GlobalId high = GlobalId{1} << 50;
  scene.planes = {{0, 0, {0, 0, 0}, {0, 0, 1}},
                  {high, 0, {0, 0, 0}, {1, 0, 0}},
                  {high + 1, 0, {side, 0, 0}, {-1, 0, 0}},
                  {1, 0, {0, 0, 0}, {0, 1, 0}},
                  {1, 1, {0, side, 0}, {0, -1, 0}}};
  const real c30 = std::cos(std::numbers::pi / 12), s30 = std::sin(std::numbers::pi / 12);  // 30 deg about (1,1,0)
  const real axis = std::sqrt(real(0.5));
  scene.boxes = {{2, 0, {side / 3, side / 2, side / 2}, {2, 1, 3}, {c30, s30 * axis, s30 * axis, 0}},
                 {high + 2, 0, {2 * side / 3, side / 2, side / 4}, {1.5, 2.5, 1}, {1, 0, 0, 0}}};
  return scene;
}

// ------------------------------------------------------------------------------------------
// 2. Same list, bit for bit, for any thread count.

TEST(CollisionDeterminism, BitwiseIdenticalForOneTwoThreeAndFourThreads) {
  const ShapeScene scene = mixed_scene(50000, 21);
  CollisionSettings settings;
  settings.envelope = 0.05;

  ContactList serial;
  CollisionStats serial_stats;
  {
    ThreadCount threads(1);
    CollisionDetector detector(settings);
    serial = detector.detect(scene);
    serial_stats = detector.last_stats();
  }
  // The scene must exercise every path whose parallel order could leak into the result.
  ASSERT_GT(serial.size(), 20000u);
  EXPECT_GT(serial_stats.contacts_before_reduction, serial_stats.contacts) << "no body pair hit the cap";
  const auto count_with_gid = [&](GlobalId g) {
    return std::count_if(serial.gid_a.begin(), serial.gid_a.end(), [&](GlobalId a) { return a == g; }) +
           std::count_if(serial.gid_b.begin(), serial.gid_b.end(), [&](GlobalId b) { return b == g; });
  };
  EXPECT_GT(count_with_gid(0), 0) << "no floor contacts";
  EXPECT_GT(count_with_gid(GlobalId{1} << 50), 0) << "no contacts with a plane of larger gid";
  EXPECT_GT(count_with_gid(2), 0) << "no contacts with the rotated box";
  EXPECT_GT(count_with_gid((GlobalId{1} << 50) + 2), 0) << "no contacts with the box of larger gid";
  EXPECT_TRUE(is_canonically_ordered(serial));

  for (int n : {2, 3, 4}) {
    ThreadCount threads(n);
    CollisionDetector detector(settings);
    const ContactList parallel = detector.detect(scene);
    EXPECT_TRUE(bitwise_equal(serial, parallel)) << n << " threads";
    // The detector keeps its buffers between passes; a second pass must not see the first.
    EXPECT_TRUE(bitwise_equal(serial, detector.detect(scene))) << n << " threads, second pass";
  }
}

// ------------------------------------------------------------------------------------------
// 3. The automatic bin size keeps bins small, and the bin size never changes the answer.

real mean_diameter(const SphereShapes& s) {
  return 2 * std::accumulate(s.radius.begin(), s.radius.end(), real(0)) / static_cast<real>(s.size());
}

TEST(CollisionBinSize, AutomaticSizeFollowsMeanDiameterAndBinsHoldFewSpheres) {
  const ShapeScene scene = mixed_scene(20000, 31);
  const SphereShapes& s = scene.spheres;
  CollisionSettings settings;
  settings.envelope = 0.05;
  CollisionDetector detector(settings);
  detector.detect(scene);
  const CollisionStats& stats = detector.last_stats();

  const real expected = settings.bin_size_factor * mean_diameter(s);
  EXPECT_NEAR(stats.bin_size.x, expected, 1e-12 * expected);
  EXPECT_EQ(stats.bin_size.y, stats.bin_size.x);
  EXPECT_EQ(stats.bin_size.z, stats.bin_size.x);
  ASSERT_GT(stats.active_bins, 0u);
  // A sphere's box is at most a bin or two wide, so it touches a handful of bins; 27 on
  // average would mean the bins are far too small for the spheres.
  EXPECT_LE(stats.bin_shape_pairs, 27 * s.size());
  EXPECT_LT(static_cast<double>(stats.bin_shape_pairs) / stats.active_bins, 30.0) << "bins hold too many spheres";
  EXPECT_LE(stats.active_bins, stats.touched_bins);
  EXPECT_LE(stats.touched_bins, stats.bin_shape_pairs);
}

TEST(CollisionBinSize, ContactListIsIndependentOfBinSize) {
  const ShapeScene scene = mixed_scene(20000, 32);
  CollisionSettings settings;
  settings.envelope = 0.05;
  CollisionDetector automatic(settings);
  const ContactList reference = automatic.detect(scene);
  const real default_size = automatic.last_stats().bin_size.x;
  ASSERT_GT(reference.size(), 0u);

  for (real scale : {0.5, 2.0, 4.0}) {
    CollisionSettings explicit_size = settings;
    explicit_size.bin_size = scale * default_size;
    CollisionDetector detector(explicit_size);
    EXPECT_TRUE(bitwise_equal(reference, detector.detect(scene))) << scale << " x the default bin size";
    EXPECT_NEAR(detector.last_stats().bin_size.x, explicit_size.bin_size, 1e-12 * explicit_size.bin_size);
  }
  for (real factor : {0.5, 1.0, 3.0}) {
    CollisionSettings by_factor = settings;
    by_factor.bin_size_factor = factor;
    CollisionDetector detector(by_factor);
    EXPECT_TRUE(bitwise_equal(reference, detector.detect(scene))) << "bin_size_factor " << factor;
    const real expected = factor * mean_diameter(scene.spheres);
    EXPECT_NEAR(detector.last_stats().bin_size.x, expected, 1e-12 * expected);
  }
}

// ------------------------------------------------------------------------------------------
// 4. The resident path (load once, detect in device memory, copy out on request) finds the same
//    list as detect() and moves no contact to the host until asked (dynamics_validation_test.cpp
//    checks that a sphere a step made non-finite on the device is named).

TEST(CollisionResident, LoadedSceneGivesTheSameListAndCopiesOnlyWhenAsked) {
  const ShapeScene scene = mixed_scene(20000, 5);
  CollisionSettings settings;
  settings.envelope = 0.05;
  CollisionDetector reference(settings);
  const ContactList expected = reference.detect(scene);

  CollisionDetector detector(settings);
  detector.load(scene);
  for (int pass = 0; pass < 2; ++pass) {  // the loaded scene stays: a second pass sees the same
    const TransferBytes before = transfer_bytes();
    const std::size_t found = detector.detect_loaded();
    const TransferBytes during = transfer_bytes() - before;
    EXPECT_EQ(found, expected.size());
    // A few counts (entries, contacts, the largest bin count) cross; no array does.
    EXPECT_LT(during.total(), 256u) << "pass " << pass;
  }
  const TransferBytes before = transfer_bytes();
  EXPECT_TRUE(bitwise_equal(expected, detector.contacts()));
  EXPECT_GE((transfer_bytes() - before).to_host, expected.size() * 8u * 13u);
}

}  // namespace
// ------------------------------------------------------------------------------------------
// 4. Centres and contact points exactly on bin faces. Bin faces sit at whole multiples of the
//    bin size, so with bin_size = 1 integer coordinates are faces, edges and corners.

TEST(CollisionBinFaces, CentresAndContactPointsOnFacesAreFoundOnce) {
  ShapeScene scene;
  SphereShapes& s = scene.spheres;
  GlobalId gid = 100;
  // Chain with centres on faces (x integer) and on edges (y = 0, z = 0): contact points inside bins.
  for (int i = 0; i < 8; ++i) s.add({real(i), 0, 0}, 0.5, gid++, 0);
  // Chain with contact points on faces: centres at half-integers, touching at integer x.
  for (int i = 0; i < 8; ++i) s.add({real(i) + 0.5, 3.5, 3.5}, 0.5, gid++, 0);
  // A 6x6x6 block touching along all three axes: every contact point is on a face, and the
  // eight spheres around each lattice corner all meet in its bins.
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j)
      for (int k = 0; k < 6; ++k) s.add({real(i) + 0.5, real(j) + 0.5, real(k) + 10.5}, 0.5, gid++, 0);

  CollisionSettings settings;
  settings.bin_size = 1;
  CollisionDetector detector(settings);
  const ContactList got = detector.detect(scene);
  const CollisionStats& stats = detector.last_stats();
  for (real origin : {stats.grid_origin.x, stats.grid_origin.y, stats.grid_origin.z})
    EXPECT_EQ(origin, std::floor(origin)) << "bin faces are not at integer coordinates";
  EXPECT_EQ(stats.bin_size.x, 1.0);

  EXPECT_EQ(got.size(), 7u + 7u + 3u * 5u * 36u);
  EXPECT_TRUE(is_canonically_ordered(got));
  EXPECT_TRUE(matches_reference(got, all_pairs_reference(s, 0)));
  for (std::size_t c = 0; c < got.size(); ++c) EXPECT_EQ(got.distance[c], 0.0) << "contact " << c;
}

// Touching pairs built in floating point (c_b = c_a + r_a + r_b, rounded) with coordinates
// and radii that are not exactly representable, each straddling a bin face to within a few
// ulps: whatever the rounding of c +- r and of the face position, a pair whose distance rounds
// to <= 0 must share a bin and be found exactly once.
TEST(CollisionBinFaces, RoundedTouchingPairsAcrossFacesAreNeverLost) {
  ShapeScene scene;
  SphereShapes& s = scene.spheres;
  std::mt19937_64 rng(77);
  const auto unit = [&rng] { return static_cast<real>(rng() >> 11) * 0x1.0p-53; };
  for (int p = 0; p < 20000; ++p) {
    const real ra = 0.01 + 0.04 * unit(), rb = 0.01 + 0.04 * unit();
    const real face = 0.1 * static_cast<real>(p % 97 + 1);  // a bin face when bin_size = 0.1
    const real ca = face - ra - 1e-15 * unit();
    const Vec3 a{ca, 0.3 * static_cast<real>(p / 97), 0.1 * static_cast<real>(p % 7)};
    s.add(a, ra, 2 * p, 0);
    s.add({ca + (ra + rb), a.y, a.z}, rb, 2 * p + 1, 0);
  }
  CollisionSettings settings;
  settings.bin_size = 0.1;
  CollisionDetector detector(settings);
  const ContactList got = detector.detect(scene);
  const std::vector<ReferenceContact> want = all_pairs_reference(s, 0);
  EXPECT_GT(want.size(), 5000u) << "too few pairs round to touching to test anything";
  EXPECT_TRUE(matches_reference(got, want));
}

}  // namespace trackcosim::gpu
