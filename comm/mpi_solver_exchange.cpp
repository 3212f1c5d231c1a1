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
}

MpiSolverExchange::MpiSolverExchange(NeighbourExchange& neighbours, ExchangeCounts counts)
    : neighbours_(neighbours), counts_(std::move(counts)) {}

void MpiSolverExchange::exchange_blocks(std::span<const real> out, std::span<real> in,
                                        const std::vector<std::size_t>& out_items,
                                        const std::vector<std::size_t>& in_items, ExchangeTag tag) {
  const Stopwatch watch(message_seconds_);
  std::vector<std::span<const real>> o;
  std::vector<std::span<real>> i;
  std::size_t at_out = 0, at_in = 0;
  for (std::size_t k = 0; k < neighbours_.neighbours().size(); ++k) {
    o.push_back(out.subspan(at_out, kRealsPerItem * out_items[k]));
    i.push_back(in.subspan(at_in, kRealsPerItem * in_items[k]));
    at_out += kRealsPerItem * out_items[k];
    at_in += kRealsPerItem * in_items[k];
  }
  if (at_out != out.size() || at_in != in.size())
    throw std::logic_error("solver exchange: message sizes " + std::to_string(out.size()) + "/" +
                           std::to_string(in.size()) + " do not match the partition counts");
  neighbours_.exchange(o, i, tag);
}

void MpiSolverExchange::exchange_slots(const std::vector<real>& out, std::vector<real>& in) {
  exchange_blocks(out, in, counts_.slots_out, counts_.slots_in, ExchangeTag::Slots);
}

void MpiSolverExchange::exchange_velocities(const std::vector<real>& out, std::vector<real>& in) {
  exchange_blocks(out, in, counts_.velocities_out, counts_.velocities_in, ExchangeTag::Velocities);
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
