#pragma once
// What the exchanges between terrain ranks cost in one step (DistributedTerrain::exchange_stats;
// stats.csv and the co-simulation's timing.csv show it).

#include <cstddef>

#include "comm/neighbour_exchange.h"

namespace trackcosim::terrain {

struct ExchangeStats {
  double seconds = 0;            ///< ghost refresh + counts + warm start, between the solver's iterations
  double solver_seconds = 0;     ///< the solver's per-iteration messages and reductions
  double reduction_seconds = 0;  ///< the reductions' share of solver_seconds
  std::size_t reductions = 0;    ///< the solver's allreduces
  /// The neighbour exchanges of every kind (ghosts, counts, solver, warm start): how many (each
  /// one message per neighbour and way), the bytes they sent, the wall time in them. Messages
  /// and reductions alone, where `seconds` also holds the ghost refresh's own work.
  std::size_t exchanges = 0;
  std::size_t bytes = 0;
  double message_seconds = 0;
  double message_cpu_seconds = 0;  ///< CPU time of message_seconds (polling)
  std::size_t ghosts = 0;        ///< ghosts held in the last step
  std::size_t migrated_in = 0;   ///< bodies this rank started owning in the last step

  /// Adds the neighbour exchanges' counters (comm::NeighbourExchange::traffic).
  void add_messages(const comm::ExchangeTraffic& traffic) {
    exchanges += traffic.exchanges;
    bytes += traffic.bytes;
    message_seconds += traffic.seconds;
    message_cpu_seconds += traffic.cpu_seconds;
  }
};

}  // namespace trackcosim::terrain
