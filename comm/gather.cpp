#include "comm/gather.h"

#include <cmath>
#include <string>

namespace trackcosim::comm {
namespace {
constexpr int kFractionBits = 80;
constexpr double kLimit = 70368744177664.0;  // 2^46

double to_double(Int128 sum) {
  const bool negative = sum < 0;
  const UInt128 magnitude = negative ? -static_cast<UInt128>(sum) : sum;
  const double value =
      std::ldexp(static_cast<double>(static_cast<unsigned long long>(magnitude >> 64)), 64 - kFractionBits) +
      std::ldexp(static_cast<double>(static_cast<unsigned long long>(magnitude)), -kFractionBits);
  return negative ? -value : value;
}

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
    out[i] = to_double(sum);
  }
  return out;
}

double ExactSums::total_here(std::size_t i) const { return to_double(units_[i]); }

std::string all_to_all_bytes(const RankGroup& group, std::string_view data, const std::vector<std::uint64_t>& send_bytes) {
  const MPI_Comm comm = group.handle();
  const int size = group.size();
  if (static_cast<int>(send_bytes.size()) != size) throw std::logic_error("all_to_all_bytes: one count per rank expected");
  std::vector<int> send_counts(size), send_offsets(size), receive_counts(size), receive_offsets(size);
  std::uint64_t at = 0;
  for (int r = 0; r < size; ++r) {
    if (send_bytes[r] > 2147483647ull || at > 2147483647ull)
      throw std::length_error("all_to_all_bytes: more than 2 GiB to send");
    send_offsets[r] = static_cast<int>(at);
    send_counts[r] = static_cast<int>(send_bytes[r]);
    at += send_bytes[r];
  }
  if (at != data.size()) throw std::logic_error("all_to_all_bytes: the counts do not add up to the data");
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, receive_counts.data(), 1, MPI_INT, comm);
  long long total = 0;
  for (int r = 0; r < size; ++r) {
    receive_offsets[r] = static_cast<int>(total);
    total += receive_counts[r];
    if (total > 2147483647LL) throw std::length_error("all_to_all_bytes: more than 2 GiB to receive");
  }
  std::string in(static_cast<std::size_t>(total), '\0');
  MPI_Alltoallv(data.data(), send_counts.data(), send_offsets.data(), MPI_BYTE, in.data(), receive_counts.data(),
                receive_offsets.data(), MPI_BYTE, comm);
  return in;
}

}  // namespace trackcosim::comm
