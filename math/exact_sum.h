#pragma once
// A sum of reals that is exact, so that it does not depend on the order of its terms.
//
// Why: the CCP solver's scalar sums (gpu/dynamics/detail/deterministic_sum.h) add one term per
// contact or body. Added in floating point, their rounding depends on how the terms are split
// over chunks, GPU blocks and MPI ranks. APGD's decisions compare such sums (the line search's
// L <- 2 L, the restart), and near a tie a rounding difference flips one, so 1 and 2 terrain
// ranks took different decisions and their runs parted. The iterates depend on the sums only
// through those decisions (t = 1 / L, beta from theta), so with exact sums a solve gives the same
// bits on any number of threads, blocks and ranks.
//
// How: a term x is cut at fixed binary places into kBins parts. Part k is an integer multiple of
// its quantum 2^e_k, e_k = kLowestExponent + kBinBits k, and is added to bin k. The cut of part k
// is (x + C_k) - C_k with C_k = 1.5 2^(e_k + 52): it rounds x to the nearest multiple of 2^e_k;
// the remainder goes on to the bin below. Below the top bin, a part is at most 2^(e_k + kBinBits - 1)
// in magnitude, so a bin stays a multiple of its quantum below 2^(e_k + 53) for up to
// kExactTerms terms: every addition to a bin, and every addition of two bins, is exact. The sum
// is read by carrying each bin's excess into the one above and adding the bins, smallest first:
// the same operations in the same order, so equal bins read as equal values.
//
// Range: terms from 2^-112 (1.9e-34; what lies below is dropped, at most 2^-113 a term) to
// 2^69 (5.9e20). A term beyond that, an infinity or a NaN goes into the top bin as it is: the
// sum is then no longer exact, but it keeps the infinity or NaN that shows a solve gone wrong.
// The bins are doubles whatever `real` is.
//
// Cost: 4 additions a bin (28 a term) and no branch in the common case, next to the hundreds of
// bytes a solver pass reads per term (docs/ccp.md, "Exact scalar sums").

#include <cmath>

#include "math/host_device.h"
#include "math/real.h"

namespace trackcosim {

struct ExactSum {
  static constexpr int kBins = 7;
  static constexpr int kBinBits = 26;
  static constexpr int kLowestExponent = -112;
  /// Terms a sum may take and stay exact: 2^(54 - kBinBits), 2.7e8.
  static constexpr double kExactTerms = 268435456.0;

  double bin[kBins] = {};

  /// 2^e, exactly, for the bins' exponents (ldexp is not a device function everywhere).
  TRACKCOSIM_HD static constexpr double power_of_two(int e) {
    double p = 1;
    for (; e > 0; --e) p *= 2;
    for (; e < 0; ++e) p /= 2;
    return p;
  }
  TRACKCOSIM_HD static constexpr double quantum(int k) { return power_of_two(kLowestExponent + kBinBits * k); }
  /// 1.5 2^(e_k + 52): adding and subtracting it rounds to a multiple of 2^e_k.
  TRACKCOSIM_HD static constexpr double rounder(int k) { return 1.5 * power_of_two(kLowestExponent + kBinBits * k + 52); }
  /// Largest term cut exactly: 2^(e_top + kBinBits - 1).
  TRACKCOSIM_HD static constexpr double largest_term() {
    return power_of_two(kLowestExponent + kBinBits * (kBins - 1) + kBinBits - 1);
  }

  TRACKCOSIM_HD ExactSum& operator+=(real term) {
    double x = static_cast<double>(term);
    if (!(std::fabs(x) <= largest_term())) {  // out of range, infinite or NaN
      bin[kBins - 1] += x;
      return *this;
    }
    cut_from<kBins - 1>(x);
    return *this;
  }

  TRACKCOSIM_HD ExactSum& operator+=(const ExactSum& other) {
    for (int k = 0; k < kBins; ++k) bin[k] += other.bin[k];
    return *this;
  }

  TRACKCOSIM_HD friend ExactSum operator+(ExactSum a, const ExactSum& b) { return a += b; }

  /// Adds to bin K its part of x and leaves x the remainder, then the bins below. The rounders
  /// are compile-time constants (a constexpr variable per bin), on the host and on a GPU.
  template <int K>
  TRACKCOSIM_HD void cut_from(double& x) {
    constexpr double c = rounder(K);
    const double part = (x + c) - c;
    bin[K] += part;
    x -= part;
    if constexpr (K > 0) cut_from<K - 1>(x);
  }

  /// The sum, rounded once per bin after the carries: the same bins give the same value.
  TRACKCOSIM_HD real value() const {
    double b[kBins];
    for (int k = 0; k < kBins; ++k) b[k] = bin[k];
    for (int k = 0; k + 1 < kBins; ++k) {  // carry what bin k holds of bin k + 1's quanta
      const double c = rounder(k + 1);
      const double carry = (b[k] + c) - c;
      b[k] -= carry;
      b[k + 1] += carry;
    }
    double total = b[0];
    for (int k = 1; k < kBins; ++k) total += b[k];
    return static_cast<real>(total);
  }
};

}  // namespace trackcosim
