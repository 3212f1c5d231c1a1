#pragma once
// What watches the terrain's coupling loop (coupling_session.h): the outputs of a co-simulation
// (timing.csv, solver.csv, ranks.csv, patch.csv, particle snapshots), the moving patch and the
// checkpoints' allowance. The loop reads as the protocol, receive -> fan out -> advance ->
// reduce -> send, and calls its observers at these fixed points of every coupling step, in the
// order they were added; a call marked collective is made on every terrain rank.

#include <cstdint>
#include <vector>

#include "cosim/shoe_exchange.h"
#include "terrain_node/coupling/coupling_summary.h"
#include "terrain_node/distributed/distributed_terrain.h"

namespace trackcosim::terrain {

/// Coupling step k and t_k, its start on the vehicle's clock [s].
struct CouplingStep {
  std::uint64_t index = 0;
  double time = 0;
};

/// The leader's clocks of one coupling step (timing.csv's columns besides the stages) [s].
struct CouplingStepTimes {
  double wait = 0;       ///< for the vehicle's states
  double compute = 0;    ///< the sub-steps, up to the meeting of the ranks after them
  double imbalance = 0;  ///< of compute: waiting there for the slowest rank
  double exchange = 0;   ///< broadcasts, load reduction, sending the forces
};

class CouplingObserver {
 public:
  virtual ~CouplingObserver() = default;
  /// Collective (fan out): the proxies are at the step's shoe states; the sub-steps come next.
  virtual void on_states(DistributedTerrain&, const CouplingStep&, const std::vector<cosim::ShoeState>&) {}
  /// Collective (advance): before each sub-step. Not counted as the terrain's computing.
  virtual void before_substep(const DistributedTerrain&) {}
  /// This rank (advance): after each sub-step, with the seconds terrain.step() took.
  virtual void after_substep(const DistributedTerrain&, double) {}
  /// Collective: the step's sub-steps are done on every rank (outside the timed work).
  virtual void on_advanced(const DistributedTerrain&, const CouplingStep&) {}
  /// After the step's forces were sent, with its clocks.
  virtual void on_sent(const CouplingStep&, const CouplingStepTimes&) {}
  /// Every row so far to its file: a checkpoint is written, and a resume reads them back.
  virtual void flush() {}
  /// Collective: the coupling ended (the vehicle finished, or a checkpoint stopped it).
  virtual void on_end(const DistributedTerrain&, CouplingSummary&) {}
};

/// The loop's observers, told in the order they were added.
class CouplingObservers {
 public:
  void add(CouplingObserver& observer) { list_.push_back(&observer); }

  void on_states(DistributedTerrain& terrain, const CouplingStep& step, const std::vector<cosim::ShoeState>& states) {
    for (CouplingObserver* o : list_) o->on_states(terrain, step, states);
  }
  void before_substep(const DistributedTerrain& terrain) {
    for (CouplingObserver* o : list_) o->before_substep(terrain);
  }
  void after_substep(const DistributedTerrain& terrain, double step_seconds) {
    for (CouplingObserver* o : list_) o->after_substep(terrain, step_seconds);
  }
  void on_advanced(const DistributedTerrain& terrain, const CouplingStep& step) {
    for (CouplingObserver* o : list_) o->on_advanced(terrain, step);
  }
  void on_sent(const CouplingStep& step, const CouplingStepTimes& times) {
    for (CouplingObserver* o : list_) o->on_sent(step, times);
  }
  void flush() {
    for (CouplingObserver* o : list_) o->flush();
  }
  void on_end(const DistributedTerrain& terrain, CouplingSummary& summary) {
    for (CouplingObserver* o : list_) o->on_end(terrain, summary);
  }

 private:
  std::vector<CouplingObserver*> list_;
};

}  // namespace trackcosim::terrain
