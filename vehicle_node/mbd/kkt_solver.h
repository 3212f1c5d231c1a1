#pragma once
// Internal: the direct solver of one time step.
//
// Unknowns: new velocities v+ of the moving bodies and the row impulses lambda. With
// M the block-diagonal mass matrix (m I, I_world per body), p = M v + h f the momentum after the
// explicit forces, J the stacked row Jacobians and Sigma the SPOOK regularization:
//
//   [ M    -J^T   ] [ v+     ]   [  p   ]         (momentum balance: M v+ = p + J^T lambda)
//   [ -J   -Sigma ] [ lambda ] = [ -rhs ]         (rows: J v+ + Sigma lambda = rhs)
//
// This KKT matrix is symmetric quasi-definite (M > 0, Sigma > 0), so an LDL^T factorization
// exists for every symmetric ordering (Vanderbei 1995) and Eigen's SimplicialLDLT with AMD needs
// no pivoting; the heavy chassis is a single 6x6 block here, not the dense coupling it creates in
// the Schur complement J M^-1 J^T. The pattern depends only on which bodies each row touches,
// so the symbolic analysis is redone only when that changes (contacts appearing/leaving).
//
// Bounded rows (contacts, friction, torque-limited motors) are solved by block principal
// pivoting on the same matrix: a row clamped at a bound is replaced by lambda_r = bound (its
// Jacobian moves to the right-hand side), all other rows are solved exactly, then rows whose
// impulse left its bounds are clamped and clamped rows whose slack has the wrong sign are
// freed. Friction bounds mu lambda_n follow the normal impulse of the previous iteration
// (the "sequence of QPs" of Lacoursiere's direct-solver vehicle paper). States are warm
// started from the previous step. The matrix is factored once per step for the warm-started
// states; later iterations solve with that factorization bordered by the changed rows
// (kkt_border.h) and refactor only when the border grows too large.

#include <vector>

#include "vehicle_node/mbd/body_store.h"
#include "vehicle_node/mbd/constraint_row.h"
#include "vehicle_node/mbd/kkt_border.h"

namespace trackcosim::vehicle::detail {

struct KktResult {
  int iterations = 0;
  int factorizations = 0;
  bool converged = true;
  double residual = 0.0;      // largest wrong-sign slack of a clamped row (m/s)
  double bound_excess = 0.0;  // largest impulse beyond its bound on a free row (N s)
  bool reanalyzed = false;
  double assemble_seconds = 0.0, solve_seconds = 0.0;
};

class KktSolver {
 public:
  /// momentum[k], inertia_world[k]: moving body with dof k. added_mass: empty, or a 6x6 block
  /// per moving body added to its mass block (implicit loads; every mass block is then a full
  /// 6x6 in the pattern). On return rows[r].lambda and rows[r].state hold the
  /// solution and v_out[k] the new [v; w] of moving body k.
  KktResult solve(const BodyStore& bodies, const std::vector<V6>& momentum, const std::vector<M3>& inertia_world,
                  const std::vector<M6>& added_mass, std::vector<ConstraintRow>& rows, int max_iterations,
                  std::vector<V6>& v_out);

  /// Post-stabilization (Cline & Pai 2003) with the factorization of the last solve: the
  /// mass-weighted smallest displacement dx with J dx + Sigma mu = -g, i.e. rows[r] moved
  /// back by its violation g[r] (0 for rows that must not move), clamped rows held.
  ///   [ M  -J^T ] [dx]   [0]
  ///   [-J  -Sig ] [mu] = [g]
  /// dx_out[k] = [dx; dtheta] of moving body k (dtheta a world-frame rotation vector).
  void project(const std::vector<ConstraintRow>& rows, const std::vector<double>& g, std::vector<V6>& dx_out);

 private:
  void build_pattern(const BodyStore& bodies, const std::vector<M6>& added_mass,
                     const std::vector<ConstraintRow>& rows);
  void fill_values(const BodyStore& bodies, const std::vector<M3>& inertia_world, const std::vector<M6>& added_mass,
                   const std::vector<ConstraintRow>& rows);
  /// K0 for the given clamped flags (clamped columns removed), factored; analyses first if asked.
  void factorize(const std::vector<char>& clamped, bool analyze);

  using SpMat = KktMatrix;
  int nb_ = 0, nr_ = 0;
  std::vector<int> outer_, inner_;          // lower-triangle CSC pattern of this step
  std::vector<int> analyzed_outer_, analyzed_inner_;
  std::vector<double> free_values_;         // values with every row free
  std::vector<int> jpos_;                   // per row: 12 value positions (a then b), -1 if fixed
  std::vector<int> diag_pos_;               // per row: position of its diagonal
  std::vector<int> dof_a_, dof_b_;          // per row: moving-body index of a and b, -1 if fixed
  SpMat k_;
  KktFactor ldlt_;
  bool analyzed_ = false;
  // The last solve's system, reused by project().
  KktBorder border_;
  std::vector<char> clamped_;
  std::vector<double> eq_, beta_;
  Eigen::VectorXd body_rhs_;
};

}  // namespace trackcosim::vehicle::detail
