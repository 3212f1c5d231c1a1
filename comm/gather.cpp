#include "comm/gather.h"

#include <cmath>
#include <string>

namespace trackcosim::comm {
namespace {
constexpr int kFractionBits = 80;
constexpr double kLimit = 70368744177664.0;  // 2^46
}  // namespace

void ExactSums::add(std::size_t i, double x) {
  if (!(std::fabs(x) < kLimit)) throw std::range_error("ExactSums: term " + std::to_string(x) + " out of range");
  // x = m 2^e with |m| < 2^53: scaling by a power of two is exact; the rounding drops the bits
  // below 2^-80 only.
  const double scaled = std::ldexp(x, kFractionBits - 64);  // in units of 2^64 * 2^-80
  double high = std::floor(scaled);
  double low = std::ldexp(scaled - high, 64);
  if (low >= 18446744073709551616.0) {  // a tiny negative term: 1 - tiny rounded up to 1
    high += 1;
    low = 0;
  }
  units_[i] += (static_cast<Int128>(static_cast<long long>(high)) << 64) +
               static_cast<Int128>(static_cast<unsigned long long>(low));
}

std::vector<double> ExactSums::totals(const RankGroup& group) const {
  const int size = group.size();
  const std::size_t n = units_.size();
  std::vector<Int128> all(n * static_cast<std::size_t>(size));
  MPI_Allgather(units_.data(), static_cast<int>(n * sizeof(Int128)), MPI_BYTE, all.data(),
                static_cast<int>(n * sizeof(Int128)), MPI_BYTE, group.handle());
  std::vector<double> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    Int128 sum = 0;
    for (int r = 0; r < size; ++r) sum += all[static_cast<std::size_t>(r) * n + i];  // integers: any order
    const bool negative = sum < 0;
    const UInt128 magnitude = negative ? -static_cast<UInt128>(sum) : sum;
    const double value =
        std::ldexp(static_cast<double>(static_cast<unsigned long long>(magnitude >> 64)), 64 - kFractionBits) +
        std::ldexp(static_cast<double>(static_cast<unsigned long long>(magnitude)), -kFractionBits);
    out[i] = negative ? -value : value;
  }
  return out;
}

}  // namespace trackcosim::comm
