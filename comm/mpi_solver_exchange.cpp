#include "comm/mpi_solver_exchange.h"

#include <chrono>
#include <stdexcept>
#include <string>

namespace trackcosim::comm {
namespace {

/// Adds the lifetime of the object to a counter.
class Stopwatch {
 public:
  explicit Stopwatch(double& total) : total_(total), start_(std::chrono::steady_clock::now()) {}
  ~Stopwatch() { total_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

 private:
  double& total_;
  std::chrono::steady_clock::time_point start_;
};

constexpr std::size_t kRealsPerItem = 6;
const MPI_Datatype kReal = sizeof(real) == sizeof(double) ? MPI_DOUBLE : MPI_FLOAT;

/// One block per neighbour, `per_item` values per item, the items per neighbour as counted.
template <class T>
void exchange_blocks(NeighbourExchange& neighbours, std::span<const T> out, std::span<T> in, std::size_t per_item,
                     const std::vector<std::size_t>& out_items, const std::vector<std::size_t>& in_items,
                     ExchangeTag tag) {
  std::vector<std::span<const T>> o;
  std::vector<std::span<T>> i;
  std::size_t at_out = 0, at_in = 0;
  for (std::size_t k = 0; k < neighbours.neighbours().size(); ++k) {
    if (at_out + per_item * out_items[k] > out.size() || at_in + per_item * in_items[k] > in.size()) break;
    o.push_back(out.subspan(at_out, per_item * out_items[k]));
    i.push_back(in.subspan(at_in, per_item * in_items[k]));
    at_out += per_item * out_items[k];
    at_in += per_item * in_items[k];
  }
  if (o.size() != neighbours.neighbours().size() || at_out != out.size() || at_in != in.size())
    throw std::logic_error("solver exchange: message sizes " + std::to_string(out.size()) + "/" +
                           std::to_string(in.size()) + " do not match the partition counts");
  neighbours.exchange(o, i, tag);
}

}  // namespace

MpiSolverExchange::MpiSolverExchange(NeighbourExchange& neighbours, ExchangeCounts counts)
    : neighbours_(neighbours), counts_(std::move(counts)) {}

void MpiSolverExchange::exchange_slots(const real* out, std::size_t out_count, real* in, std::size_t in_count) {
  const Stopwatch watch(message_seconds_);
  exchange_blocks<real>(neighbours_, {out, out_count}, {in, in_count}, kRealsPerItem, counts_.slots_out,
                        counts_.slots_in, ExchangeTag::Slots);
}

void MpiSolverExchange::exchange_velocities(const real* out, std::size_t out_count, real* in,
                                            std::size_t in_count) {
  const Stopwatch watch(message_seconds_);
  exchange_blocks<real>(neighbours_, {out, out_count}, {in, in_count}, kRealsPerItem, counts_.velocities_out,
                        counts_.velocities_in, ExchangeTag::Velocities);
}

void MpiSolverExchange::exchange_counts(const std::vector<std::uint32_t>& out, std::vector<std::uint32_t>& in) {
  const Stopwatch watch(message_seconds_);
  exchange_blocks<std::uint32_t>(neighbours_, out, in, 1, counts_.velocities_out, counts_.velocities_in,
                                 ExchangeTag::Counts);
}

void MpiSolverExchange::sum(real* values, std::size_t count) {
  const Stopwatch watch(reduction_seconds_);
  ++reductions_;
  MPI_Allreduce(MPI_IN_PLACE, values, static_cast<int>(count), kReal, MPI_SUM,
                neighbours_.comm());
}

real MpiSolverExchange::min(real value) {
  const Stopwatch watch(reduction_seconds_);
  ++reductions_;
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, kReal, MPI_MIN, neighbours_.comm());
  return value;
}

}  // namespace trackcosim::comm
