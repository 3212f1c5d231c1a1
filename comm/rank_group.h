#pragma once
// A group of ranks that act together (a communicator), as the rest of the code sees it: who am
// I, how many are we, and the few collectives a program outside comm/ needs, typed. Programs
// such as terrain_node reach MPI only through this and the other comm/ headers, so a reader of
// the terrain never meets MPI's calls, datatypes or handles.
//
// Reductions are MPI's own allreduce on the named element type: integers are exact in any
// order, and max/min pick one of the operands, so all of them give the same bits on any rank
// count. Sums of doubles do not; the terrain's totals use comm::ExactSums (gather.h) instead.
//
// The group does not own its communicator: whoever created it frees it (RoleScope, a test).

#include <mpi.h>

#include <concepts>
#include <cstdint>
#include <ranges>
#include <span>

namespace trackcosim::comm {

/// The element types the reductions take: counts, flags/signals, measurements.
template <class T>
concept Reducible = std::same_as<T, int> || std::same_as<T, std::uint64_t> || std::same_as<T, double>;

enum class Reduction { Sum, Max, Min };

class RankGroup {
 public:
  /// Implicit, so that code holding a raw communicator (tests, the vehicle program) passes it to
  /// every comm/ function that takes a group.
  RankGroup(MPI_Comm comm) : comm_(comm) {}
  /// Every rank of the job; MPI must be initialised.
  static RankGroup world() { return RankGroup(MPI_COMM_WORLD); }
  /// This rank alone: a collective over it is a local computation.
  static RankGroup self() { return RankGroup(MPI_COMM_SELF); }

  int rank() const;
  int size() const;
  bool leader() const { return rank() == 0; }
  void barrier() const;

  /// Collective: every rank's `value` combined; the same on every rank.
  template <Reducible T>
  T sum(T value) const { return reduce_one(value, Reduction::Sum); }
  template <Reducible T>
  T max(T value) const { return reduce_one(value, Reduction::Max); }
  template <Reducible T>
  T min(T value) const { return reduce_one(value, Reduction::Min); }

  /// Collective, element by element over a contiguous array, vector or std::array of the same
  /// length on every rank; the result replaces it.
  template <std::ranges::contiguous_range R>
  void sum_in_place(R& values) const { all_reduce(as_span(values), Reduction::Sum); }
  template <std::ranges::contiguous_range R>
  void max_in_place(R& values) const { all_reduce(as_span(values), Reduction::Max); }
  template <std::ranges::contiguous_range R>
  void min_in_place(R& values) const { all_reduce(as_span(values), Reduction::Min); }

  /// The one reduction the others call (explicitly instantiated for the Reducible types).
  template <Reducible T>
  void all_reduce(std::span<T> values, Reduction op) const;

  /// The communicator, for comm/'s own functions only.
  MPI_Comm handle() const { return comm_; }

 private:
  template <class T>
  T reduce_one(T value, Reduction op) const {
    all_reduce(std::span<T>(&value, 1), op);
    return value;
  }
  template <class R>
  static auto as_span(R& values) {
    return std::span<std::ranges::range_value_t<R>>(std::ranges::data(values), std::ranges::size(values));
  }

  MPI_Comm comm_;
};

}  // namespace trackcosim::comm
