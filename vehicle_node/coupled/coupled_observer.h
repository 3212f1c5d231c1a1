#pragma once
// What watches the vehicle's coupling loop (coupled_run.cpp): its output files and its progress
// line. The loop reads as the protocol, send -> receive -> advance (sequential; concurrent
// advances before it receives), and tells its observers once at the end of every coupling step.

#include <cstddef>
#include <vector>

#include "cosim/shoe_exchange.h"
#include "vehicle_node/mbd/multibody_system.h"

namespace trackcosim::vehicle {

/// Coupling step k as the vehicle finished it: the system is at t_k + H.
struct CoupledStep {
  std::size_t index = 0;
  double compute = 0;  ///< the vehicle's own seconds in the step
  double wait = 0;     ///< its seconds waiting for the terrain's forces
  const std::vector<cosim::ShoeForce>* forces = nullptr;  ///< the terrain's forces of the interval
};

class CoupledObserver {
 public:
  virtual ~CoupledObserver() = default;
  virtual void on_step(const MultibodySystem& system, const CoupledStep& step) = 0;
};

}  // namespace trackcosim::vehicle
