// Histograms and cut positions along one axis (domain/balanced_cuts.h).

#include "domain/balanced_cuts.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "domain/decomposition.h"

namespace trackcosim::domain {
namespace {

std::vector<std::size_t> part_counts(const std::vector<real>& x, const std::vector<real>& cuts) {
  std::vector<std::size_t> counts(cuts.size() + 1, 0);
  for (const real v : x) ++counts[static_cast<std::size_t>(std::upper_bound(cuts.begin(), cuts.end(), v) - cuts.begin())];
  return counts;
}

TEST(AxisHistogram, ClampsOutsideAndNonFiniteCoordinatesIntoTheEndBins) {
  const std::vector<real> x{-5, 0, 0.05, 0.95, 1.0, 1e30, std::numeric_limits<real>::quiet_NaN(),
                            -std::numeric_limits<real>::infinity()};
  const AxisHistogram h = axis_histogram(x, 0, 1, 10);
  ASSERT_EQ(h.counts.size(), 10u);
  EXPECT_EQ(h.counts[0], 5u);  // -5, 0, 0.05, NaN, -inf
  EXPECT_EQ(h.counts[9], 3u);  // 0.95, 1.0, 1e30
  EXPECT_THROW(axis_histogram(x, 1, 1, 10), std::invalid_argument);
  EXPECT_THROW(axis_histogram(x, 0, 1, 0), std::invalid_argument);
}

TEST(BalancedCuts, SplitAtTheCountQuantileNotTheMiddle) {
  // 1000 points on [0, 1) and 1000 on [1, 1.1): two equal halves meet near x = 1.
  std::vector<real> x;
  for (int i = 0; i < 1000; ++i) x.push_back(0.001 * i);
  for (int i = 0; i < 1000; ++i) x.push_back(1.0 + 0.0001 * i);
  const AxisHistogram h = axis_histogram(x, 0, 1.1, 1100);
  const std::vector<real> cuts = balanced_cuts(h, 2, 0.01);
  ASSERT_EQ(cuts.size(), 1u);
  EXPECT_NEAR(cuts[0], 1.0, 0.0011);  // within one bin width (0.001) and rounding
  EXPECT_NEAR(double(part_counts(x, cuts)[0]), 1000.0, 10.0);
}

TEST(BalancedCuts, RandomDenseTailHalvesWithinOnePercent) {
  // As above with random points: 1000 uniform on [0, 1), 1000 uniform on [1, 1.1).
  std::mt19937_64 random(11);
  std::uniform_real_distribution<real> sparse(0, 1), dense(1, 1.1);
  std::vector<real> x;
  for (int i = 0; i < 1000; ++i) x.push_back(sparse(random));
  for (int i = 0; i < 1000; ++i) x.push_back(dense(random));
  const std::vector<real> cuts = balanced_cuts(axis_histogram(x, 0, 1.1, 1100), 2, 0.01);
  ASSERT_EQ(cuts.size(), 1u);
  EXPECT_NEAR(cuts[0], 1.0, 0.001);  // one bin width
  const std::vector<std::size_t> counts = part_counts(x, cuts);
  EXPECT_NEAR(double(counts[0]), 1000.0, 10.0);
  EXPECT_NEAR(double(counts[1]), 1000.0, 10.0);
}

TEST(BalancedCuts, FourPartsOfAPeakedBedHoldAQuarterEach) {
  // A normal distribution (sigma 0.1 on [0, 1)): uniform cuts would give 2.3% / 47.7% / 47.7% / 2.3%.
  std::mt19937_64 random(7);
  std::normal_distribution<real> peaked(0.5, 0.1);
  std::vector<real> x(20000);
  for (real& v : x) v = peaked(random);
  const std::vector<real> cuts = balanced_cuts(axis_histogram(x, 0, 1, 1024), 4, 0.02);
  ASSERT_EQ(cuts.size(), 3u);
  EXPECT_NEAR(cuts[1], 0.5, 0.01);
  for (const std::size_t c : part_counts(x, cuts)) EXPECT_NEAR(double(c), 5000.0, 50.0);
}

TEST(BalancedCuts, PartsStayAtLeastTheMinimumWide) {
  std::vector<real> x(1000, 0.5);  // everything in one spot
  const std::vector<real> cuts = balanced_cuts(axis_histogram(x, 0, 1, 100), 4, 0.2);
  ASSERT_EQ(cuts.size(), 3u);
  EXPECT_GE(cuts[0], 0.2 - 1e-12);
  for (std::size_t k = 1; k < cuts.size(); ++k) EXPECT_GE(cuts[k] - cuts[k - 1], 0.2 - 1e-12);
  EXPECT_LE(cuts.back(), 0.8 + 1e-12);
}

TEST(BalancedCuts, TooShortARangeFallsBackToUniformCutsADecompositionAccepts) {
  std::vector<real> x(1000, 0.5);
  const std::vector<real> cuts = balanced_cuts(axis_histogram(x, 0, 1, 100), 4, 0.3);  // 4 x 0.3 > 1
  ASSERT_EQ(cuts.size(), 3u);
  EXPECT_NEAR(cuts[0], 0.25, 1e-12);
  EXPECT_NEAR(cuts[1], 0.5, 1e-12);
  EXPECT_NEAR(cuts[2], 0.75, 1e-12);
  EXPECT_NO_THROW(Decomposition({4, 1, 1}, cuts, {}, {}));
}

TEST(BalancedCuts, NoParticlesOrOnePartGiveTheObviousCuts) {
  const std::vector<real> none;
  EXPECT_EQ(balanced_cuts(axis_histogram(none, 0, 3, 30), 3, 0.1).size(), 2u);
  EXPECT_NEAR(balanced_cuts(axis_histogram(none, 0, 3, 30), 3, 0.1)[1], 2.0, 1e-12);
  EXPECT_TRUE(balanced_cuts(axis_histogram(none, 0, 3, 30), 1, 0.1).empty());
  EXPECT_THROW(balanced_cuts(axis_histogram(none, 0, 3, 30), 0, 0.1), std::invalid_argument);
}

TEST(UniformCuts, SplitTheRangeIntoEqualWidths) {
  const std::vector<real> cuts = uniform_cuts(-1, 2, 3);
  ASSERT_EQ(cuts.size(), 2u);
  EXPECT_DOUBLE_EQ(cuts[0], 0.0);
  EXPECT_DOUBLE_EQ(cuts[1], 1.0);
  EXPECT_TRUE(uniform_cuts(0, 1, 1).empty());
}

}  // namespace
}  // namespace trackcosim::domain
