#pragma once
// gpu::SolverExchange over MPI: the solver's per-iteration messages go to the neighbours in the
// partition's order (one contiguous block per neighbour), its scalar sums are allreduces over
// the terrain communicator.

#include <span>
#include <vector>

#include "comm/neighbour_exchange.h"
#include "gpu/dynamics/solver_exchange.h"

namespace trackcosim::comm {

/// Items (slots or bodies) per neighbour, in neighbours() order, for each direction.
struct ExchangeCounts {
  std::vector<std::size_t> slots_out, slots_in, velocities_out, velocities_in;
};

class MpiSolverExchange final : public gpu::SolverExchange {
 public:
  MpiSolverExchange(NeighbourExchange& neighbours, ExchangeCounts counts);

  void exchange_slots(const real* out, std::size_t out_count, real* in, std::size_t in_count) override;
  void exchange_velocities(const real* out, std::size_t out_count, real* in, std::size_t in_count) override;
  void exchange_counts(const std::vector<std::uint32_t>& out, std::vector<std::uint32_t>& in) override;
  void sum(real* values, std::size_t count) override;
  real min(real value) override;

  /// Wall seconds spent in this object's messages and reductions (waiting included).
  double seconds() const { return message_seconds_ + reduction_seconds_; }
  /// The reductions' share of seconds(), and how many there were.
  double reduction_seconds() const { return reduction_seconds_; }
  std::size_t reductions() const { return reductions_; }

 private:
  NeighbourExchange& neighbours_;
  ExchangeCounts counts_;
  double message_seconds_ = 0, reduction_seconds_ = 0;
  std::size_t reductions_ = 0;
};

}  // namespace trackcosim::comm
