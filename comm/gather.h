#pragma once
// Collectives for outputs and set-up (never inside the solver loop): records of every rank to
// the leader, and sums that do not depend on how the terms are split over ranks.

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "comm/rank_group.h"
#include "math/exact_sum.h"

namespace trackcosim::comm {

/// Rank 0 of `group` receives every rank's items, concatenated in rank order; others get {}.
template <class T>
std::vector<T> gather_to_leader(const RankGroup& group, const std::vector<T>& mine) {
  static_assert(std::is_trivially_copyable_v<T>);
  const MPI_Comm comm = group.handle();
  const int rank = group.rank(), size = group.size();
  const long long bytes = static_cast<long long>(mine.size() * sizeof(T));
  std::vector<long long> all_bytes(rank == 0 ? size : 0);
  MPI_Gather(&bytes, 1, MPI_LONG_LONG, all_bytes.data(), 1, MPI_LONG_LONG, 0, comm);
  std::vector<int> counts, offsets;
  std::vector<T> out;
  if (rank == 0) {
    long long total = 0;
    for (const long long b : all_bytes) {
      if (total + b > 2147483647LL) throw std::length_error("gather_to_leader: more than 2 GiB to gather");
      counts.push_back(static_cast<int>(b));
      offsets.push_back(static_cast<int>(total));
      total += b;
    }
    out.resize(static_cast<std::size_t>(total) / sizeof(T));
  }
  MPI_Gatherv(mine.data(), static_cast<int>(bytes), MPI_BYTE, out.data(), counts.data(), offsets.data(), MPI_BYTE, 0,
              comm);
  return out;
}

/// Every rank sends out[r] to rank r and gets what each rank sent it, concatenated in rank order
/// (an MPI_Alltoallv; for set-up and rebalancing only).
template <class T>
std::vector<T> all_to_all(const RankGroup& group, const std::vector<std::vector<T>>& out) {
  static_assert(std::is_trivially_copyable_v<T>);
  const MPI_Comm comm = group.handle();
  const int size = group.size();
  if (static_cast<int>(out.size()) != size) throw std::logic_error("all_to_all: one buffer per rank expected");
  std::vector<int> send_counts(size), send_offsets(size), receive_counts(size), receive_offsets(size);
  std::vector<unsigned char> send;
  for (int r = 0; r < size; ++r) {
    send_offsets[r] = static_cast<int>(send.size());
    send_counts[r] = static_cast<int>(out[r].size() * sizeof(T));
    const auto* bytes = reinterpret_cast<const unsigned char*>(out[r].data());
    send.insert(send.end(), bytes, bytes + send_counts[r]);
  }
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, receive_counts.data(), 1, MPI_INT, comm);
  long long total = 0;
  for (int r = 0; r < size; ++r) {
    receive_offsets[r] = static_cast<int>(total);
    total += receive_counts[r];
  }
  if (total > 2147483647LL) throw std::length_error("all_to_all: more than 2 GiB to receive");
  std::vector<T> in(static_cast<std::size_t>(total) / sizeof(T));
  MPI_Alltoallv(send.data(), send_counts.data(), send_offsets.data(), MPI_BYTE, in.data(), receive_counts.data(),
                receive_offsets.data(), MPI_BYTE, comm);
  return in;
}

/// Every rank sends bytes [offset_r, offset_r + send_bytes[r]) of `data` to rank r, the parts
/// lying in rank order (offset_0 = 0), and gets what each rank sent it, concatenated in rank
/// order: an all-to-all straight from the caller's buffer, for set-up and checkpoints, where
/// one extra copy of a rank's share of the terrain would count.
std::string all_to_all_bytes(const RankGroup& group, std::string_view data, const std::vector<std::uint64_t>& send_bytes);

/// Sums of doubles that are exact and so independent of order and rank split (math/exact_sum.h,
/// which the solver's sums use too; its terms from 2^-112 to 2^69 in magnitude, a term outside
/// that, an infinity or a NaN refused here). Used for the totals in stats.csv and the loads on
/// the shoes, which must be the same on any number of ranks.
class ExactSums {
 public:
  explicit ExactSums(std::size_t count = 0) : sums_(count) {}
  std::size_t size() const { return sums_.size(); }
  void add(std::size_t i, double x);
  /// Collective over `group`: the totals over all ranks, the same bits on every rank.
  std::vector<double> totals(const RankGroup& group) const;
  /// This rank's sum of entry i alone (no messages): the same bits whatever the order of the terms.
  double total_here(std::size_t i) const;
  void reset() { std::fill(sums_.begin(), sums_.end(), ::trackcosim::ExactSum{}); }

 private:
  std::vector<::trackcosim::ExactSum> sums_;
};

/// One exact sum (ExactSums of size 1).
class ExactSum {
 public:
  void add(double x) { sums_.add(0, x); }
  double total(const RankGroup& group) const { return sums_.totals(group)[0]; }

 private:
  ExactSums sums_{1};
};

}  // namespace trackcosim::comm
