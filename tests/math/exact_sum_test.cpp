// math/exact_sum.h: the solver's scalar sums are exact, so any order and any split of the terms
// (chunks, GPU blocks, MPI ranks) gives the same bits, and the value is the true sum rounded.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "math/exact_sum.h"

namespace trackcosim {
namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// Terms over the range the solver meets (2^-60 .. 2^40), both signs, most of them cancelling.
std::vector<double> wide_terms(std::size_t n, unsigned seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> mantissa(-1, 1), exponent(-60, 40);
  std::vector<double> terms(n);
  for (double& t : terms) t = mantissa(random) * std::exp2(exponent(random));
  return terms;
}

ExactSum sum_of(const std::vector<double>& terms) {
  ExactSum s;
  for (double t : terms) s += t;
  return s;
}

TEST(ExactSum, AnyOrderAndAnySplitGiveTheSameBits) {
  const std::vector<double> terms = wide_terms(100000, 1);
  const double in_order = sum_of(terms).value();
  std::mt19937_64 random(2);
  for (int trial = 0; trial < 5; ++trial) {
    std::vector<double> shuffled = terms;
    std::shuffle(shuffled.begin(), shuffled.end(), random);
    // Split as ranks and chunks would: a random number of parts of random sizes, added in
    // reverse order.
    const std::size_t parts = 2 + trial * 3;
    std::vector<ExactSum> partial(parts);
    for (std::size_t i = 0; i < shuffled.size(); ++i) partial[random() % parts] += shuffled[i];
    ExactSum total;
    for (std::size_t p = parts; p-- > 0;) total += partial[p];
    EXPECT_TRUE(same_bits(total.value(), in_order)) << "trial " << trial << ": " << total.value() << " against "
                                                    << in_order;
  }
  // Plain floating-point addition of the same terms does depend on the order (else this test
  // would show nothing).
  double forward = 0, backward = 0;
  for (double t : terms) forward += t;
  for (std::size_t i = terms.size(); i-- > 0;) backward += terms[i];
  EXPECT_FALSE(same_bits(forward, backward));
}

TEST(ExactSum, IsExactWhereFloatingPointLosesTheSmallTerms) {
  ExactSum s;
  for (double t : {std::exp2(60), 1.0, -std::exp2(60), std::exp2(-50), 3.0}) s += t;
  EXPECT_TRUE(same_bits(s.value(), 4 + std::exp2(-50)));  // plain addition gives 3 + 2^-50
  // A sum that cancels to zero is zero.
  const std::vector<double> terms = wide_terms(1000, 3);
  ExactSum zero = sum_of(terms);
  for (double t : terms) zero += -t;
  EXPECT_EQ(zero.value(), 0.0);
}

TEST(ExactSum, ValueIsTheTrueSumWithinOneUlp) {
  // Each term is an integer multiple of 2^-60 below 2^40: their sum is exact in 128-bit
  // integers, the reference.
  std::mt19937_64 random(4);
  std::uniform_int_distribution<std::int64_t> units(-(std::int64_t{1} << 52), std::int64_t{1} << 52);
  std::uniform_int_distribution<int> shift(-60, -12);
  __int128 exact_units = 0;  // in units of 2^-60
  ExactSum s;
  for (int i = 0; i < 100000; ++i) {
    const std::int64_t u = units(random);
    const int e = shift(random);
    s += std::ldexp(static_cast<double>(u), e);
    exact_units += static_cast<__int128>(u) << (e + 60);
  }
  // The reference: the integer sum, rounded to long double and then to double (within one ulp).
  const double reference = static_cast<double>(std::ldexp(static_cast<long double>(exact_units), -60));
  EXPECT_LE(std::fabs(s.value() - reference), std::fabs(reference) * std::numeric_limits<double>::epsilon())
      << s.value() << " against " << reference;
}

TEST(ExactSum, BinsHoldWholeQuantaSoTheirAdditionsAreExact) {
  const ExactSum s = sum_of(wide_terms(10000, 5));
  for (int k = 0; k < ExactSum::kBins; ++k) {
    const double q = ExactSum::quantum(k);
    EXPECT_EQ(std::fmod(s.bin[k], q), 0.0) << "bin " << k;
    EXPECT_LT(std::fabs(s.bin[k]), std::exp2(53) * q) << "bin " << k;
  }
}

TEST(ExactSum, RangeEndsAndBrokenValues) {
  ExactSum tiny;
  tiny += std::exp2(-100);
  EXPECT_EQ(tiny.value(), std::exp2(-100)) << "2^-100 is inside the range";
  ExactSum below;
  below += std::exp2(-120);
  EXPECT_EQ(below.value(), 0.0) << "2^-120 is below the lowest quantum (2^-112) and dropped";
  ExactSum large;
  large += std::exp2(70);  // beyond 2^69: into the top bin as it is
  large += 1.0;
  EXPECT_EQ(large.value(), std::exp2(70));
  ExactSum infinite;
  infinite += 1.0;
  infinite += std::numeric_limits<double>::infinity();
  EXPECT_TRUE(std::isinf(infinite.value()) && infinite.value() > 0);
  ExactSum not_a_number;
  not_a_number += std::nan("");
  not_a_number += 2.0;
  EXPECT_TRUE(std::isnan(not_a_number.value()));
}

}  // namespace
}  // namespace trackcosim
