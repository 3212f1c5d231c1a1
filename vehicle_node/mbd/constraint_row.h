#pragma once
// Internal: one scalar constraint row of the velocity-level problem. Every joint, motor and
// contact is written as rows of this one kind, so the solver sees a single list.
//
// For row r with Jacobian J_r = [ja (body a), jb (body b)], each [linear; angular]:
//   J_r v+ + sigma_r lambda_r - rhs_r = w_r,     lo_r <= lambda_r <= hi_r,
//   lambda_r = lo_r => w_r >= 0,   lambda_r = hi_r => w_r <= 0,   otherwise w_r = 0,
// with lambda_r the impulse (N s) applied to the bodies as J_r^T lambda_r. Bilateral rows have
// infinite bounds; contact normals [0, inf); friction rows [-mu lambda_n, mu lambda_n] with
// lambda_n the impulse of row `normal_row` (box friction, see docs/vehicle-engine.md).

#include <cstdint>
#include <limits>

#include "vehicle_node/mbd/eigen_types.h"

namespace trackcosim::vehicle::detail {

enum class RowState : std::uint8_t { kFree, kAtLower, kAtUpper };

struct ConstraintRow {
  int body_a = -1, body_b = -1;  // body indices; -1 = world (no unknowns)
  V6 ja = V6::Zero(), jb = V6::Zero();
  double sigma = 0.0;            // regularization (s/kg): compliance in SPOOK form
  double rhs = 0.0;
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  int normal_row = -1;           // friction rows: the normal row whose impulse bounds this one
  double mu = 0.0;
  double bound_hint = -1.0;      // friction rows: mu lambda_n of the previous step (>= 0 when known)
  double lambda = 0.0;           // solution (and warm start of clamped values)
  RowState state = RowState::kFree;
  bool bounded() const { return normal_row >= 0 || lo > -1e300 || hi < 1e300; }
};

/// SPOOK (Lacoursiere 2007) coefficients for step h, relaxation d = tau / h steps, compliance
/// eps:  J v+ + sigma lambda = -a g + b J v,  a = 4 Y / h,  b = Y,  sigma = 4 Y eps / h^2,
/// Y = 1 / (1 + 4 d). A constraint violation g decays in about d steps without ringing.
struct Spook {
  double a, b, sigma;
  static Spook make(double h, double relaxation_steps, double compliance) {
    const double y = 1.0 / (1.0 + 4.0 * relaxation_steps);
    return {4.0 * y / h, y, 4.0 * y * compliance / (h * h)};
  }
};

}  // namespace trackcosim::vehicle::detail
