#include "comm/rank_group.h"

#include <cstdint>

namespace trackcosim::comm {
namespace {

template <class T>
MPI_Datatype datatype_of();
template <>
MPI_Datatype datatype_of<int>() { return MPI_INT; }
template <>
MPI_Datatype datatype_of<std::uint64_t>() { return MPI_UINT64_T; }
template <>
MPI_Datatype datatype_of<double>() { return MPI_DOUBLE; }

MPI_Op op_of(Reduction op) {
  switch (op) {
    case Reduction::Sum: return MPI_SUM;
    case Reduction::Max: return MPI_MAX;
    case Reduction::Min: return MPI_MIN;
  }
  return MPI_OP_NULL;
}

}  // namespace

int RankGroup::rank() const {
  int rank = 0;
  MPI_Comm_rank(comm_, &rank);
  return rank;
}

int RankGroup::size() const {
  int size = 1;
  MPI_Comm_size(comm_, &size);
  return size;
}

void RankGroup::barrier() const { MPI_Barrier(comm_); }

template <Reducible T>
void RankGroup::all_reduce(std::span<T> values, Reduction op) const {
  MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), datatype_of<T>(), op_of(op), comm_);
}

template void RankGroup::all_reduce<int>(std::span<int>, Reduction) const;
template void RankGroup::all_reduce<std::uint64_t>(std::span<std::uint64_t>, Reduction) const;
template void RankGroup::all_reduce<double>(std::span<double>, Reduction) const;

}  // namespace trackcosim::comm
