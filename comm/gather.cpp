#include "comm/gather.h"

#include <cmath>
#include <string>

namespace trackcosim::comm {
void ExactSums::add(std::size_t i, double x) {
  if (!(std::fabs(x) <= ::trackcosim::ExactSum::largest_term()))
    throw std::range_error("ExactSums: term " + std::to_string(x) + " out of range");
  sums_[i] += x;
}

std::vector<double> ExactSums::totals(const RankGroup& group) const {
  // The bins hold whole quanta: their element-wise sum over the ranks is exact in any order.
  constexpr int kBins = ::trackcosim::ExactSum::kBins;
  std::vector<double> bins(sums_.size() * kBins);
  for (std::size_t i = 0; i < sums_.size(); ++i) std::copy_n(sums_[i].bin, kBins, bins.begin() + i * kBins);
  MPI_Allreduce(MPI_IN_PLACE, bins.data(), static_cast<int>(bins.size()), MPI_DOUBLE, MPI_SUM, group.handle());
  std::vector<double> out(sums_.size());
  for (std::size_t i = 0; i < sums_.size(); ++i) {
    ::trackcosim::ExactSum total;
    std::copy_n(bins.begin() + i * kBins, kBins, total.bin);
    out[i] = total.value();
  }
  return out;
}

double ExactSums::total_here(std::size_t i) const { return sums_[i].value(); }

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
