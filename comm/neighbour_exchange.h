#pragma once
// Point-to-point exchange with the neighbour ranks of one communicator: every call sends one
// buffer to each neighbour and receives one from each, nonblocking both ways, then waits. No
// collectives: a rank only ever talks to the ranks whose boxes touch its ghost layer.
//
// Two forms. `exchange` moves buffers whose sizes both sides already know (the solver's slots
// and velocities, sized once per step by the partition); `exchange_sized` sends the element
// count first, for payloads whose size the receiver cannot predict (ghost bodies, warm-start
// impulses). Element types are trivially copyable records sent as bytes. Request arrays are
// kept between calls.

#include <mpi.h>

#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "comm/rank_group.h"

namespace trackcosim::comm {

/// Message tags, one per kind of message, so that messages of different kinds never match.
enum class ExchangeTag : int { Slots = 101, Velocities, Counts, GhostBodies, GhostSpheres, WarmStart, Size };

/// What this rank's exchanges sent since the counters were last reset: the scaling model's halo
/// term is a latency per exchange and a cost per byte (bench/scaling_model.py).
struct ExchangeTraffic {
  std::uint64_t exchanges = 0;  ///< exchange calls (one message to and one from each neighbour)
  std::uint64_t bytes = 0;      ///< bytes sent, size headers included
  double seconds = 0;           ///< wall time inside those calls, waiting for the neighbours included
  double cpu_seconds = 0;       ///< this thread's CPU time inside them (polling): less than seconds
                                ///< when the rank was off its core, as on a busy machine
};

class NeighbourExchange {
 public:
  NeighbourExchange(const RankGroup& group, std::vector<int> neighbours);

  const std::vector<int>& neighbours() const { return neighbours_; }
  MPI_Comm comm() const { return comm_; }
  /// The counters, and their reset (the terrain resets them at each step's start).
  const ExchangeTraffic& traffic() const { return traffic_; }
  void reset_traffic() { traffic_ = {}; }

  /// out[k] goes to neighbours()[k]; in[k] (already sized) is filled from neighbours()[k].
  template <class T>
  void exchange(const std::vector<std::span<const T>>& out, const std::vector<std::span<T>>& in, ExchangeTag tag) {
    static_assert(std::is_trivially_copyable_v<T>);
    exchange_bytes(as_bytes(out), as_writable(in), tag);
  }

  /// exchange for vectors: in[k] already sized to what neighbours()[k] sends.
  template <class T>
  void exchange(const std::vector<std::vector<T>>& out, std::vector<std::vector<T>>& in, ExchangeTag tag) {
    std::vector<std::span<const T>> o(out.begin(), out.end());
    std::vector<std::span<T>> i(in.begin(), in.end());
    exchange(o, i, tag);
  }

  /// Like exchange, but in[k] is resized to what neighbours()[k] sends: one more message each
  /// way, its size, so use exchange where the receiver can know it.
  template <class T>
  void exchange_sized(const std::vector<std::vector<T>>& out, std::vector<std::vector<T>>& in, ExchangeTag tag) {
    static_assert(std::is_trivially_copyable_v<T>);
    std::vector<std::uint64_t> sent(out.size()), received(neighbours_.size());
    for (std::size_t k = 0; k < out.size(); ++k) sent[k] = out[k].size();
    exchange_counts(sent, received);
    in.resize(neighbours_.size());
    std::vector<std::span<const T>> o(out.begin(), out.end());
    std::vector<std::span<T>> i;
    for (std::size_t k = 0; k < neighbours_.size(); ++k) {
      in[k].resize(received[k]);
      i.emplace_back(in[k]);
    }
    exchange(o, i, tag);
  }

 private:
  template <class T>
  static std::vector<std::span<const std::byte>> as_bytes(const std::vector<std::span<const T>>& v) {
    std::vector<std::span<const std::byte>> out;
    for (const auto& s : v) out.push_back(std::as_bytes(s));
    return out;
  }
  template <class T>
  static std::vector<std::span<std::byte>> as_writable(const std::vector<std::span<T>>& v) {
    std::vector<std::span<std::byte>> out;
    for (const auto& s : v) out.push_back(std::as_writable_bytes(s));
    return out;
  }
  void exchange_bytes(const std::vector<std::span<const std::byte>>& out, const std::vector<std::span<std::byte>>& in,
                      ExchangeTag tag);
  void exchange_counts(const std::vector<std::uint64_t>& out, std::vector<std::uint64_t>& in);

  MPI_Comm comm_;
  std::vector<int> neighbours_;
  std::vector<MPI_Request> requests_;
  ExchangeTraffic traffic_;
};

}  // namespace trackcosim::comm
