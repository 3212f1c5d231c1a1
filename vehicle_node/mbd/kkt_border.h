#pragma once
// Internal: active-set iterations without refactorization.
//
// The KKT matrix K0 is factored once for the row states S0 (clamped or free) at the start of a
// step. When block pivoting moves a set D of rows to the other state, the matrix of the new
// states differs from K0 only in the rows and columns of D, so instead of a new LDL^T we solve
// K0 bordered by one column per changed row (the Schur complement / Woodbury form):
//
//   [ K0   B  ] [x]   [b]      column of B, extra diagonal, extra right side, per r in D:
//   [ B^T  Dg ] [t] = [c]        free in S0 -> clamped: e_r,                  0,       beta_r
//                                clamped in S0 -> free: a_r = [-J_r^T; 0],  -Sigma_r,  eq_r
//
// A newly clamped row keeps its K0 equation, made slack by t_r, and gets lambda_r = beta_r; a
// newly freed row gets a new impulse unknown t_r = lambda_r (its K0 component is a dummy
// 0) whose column -J_r^T enters the momentum rows and whose equation is -J_r v - Sigma_r t_r =
// eq_r. With Z = K0^-1 B (per row, cached until the next factorization)
// and x0 = K0^-1 b:
//
//   (Dg - B^T Z) t = c - B^T x0,      x = x0 - Z t.
//
// With K0 = P^T L D L^T P only the forward half is needed per changed row: B^T Z = W^T D^-1 W
// with W = L^-1 P B, sparse (a border column has <= 12 nonzeros, so W lives on their
// elimination-tree ancestors), and x comes from one backward solve of L^-1 P b - W t.
//
// The dense |D| x |D| matrix is quasi-definite (e_r^T K0^-1 e_r < 0 on the impulse block,
// a^T K0^-1 a > 0 on the velocity block), so it is always nonsingular. An iteration costs one
// backward solve plus a sparse forward solve per newly changed row, instead of a factorization.

#include <vector>

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <Eigen/SparseCholesky>

#include "vehicle_node/mbd/constraint_row.h"

namespace trackcosim::vehicle::detail {

using KktMatrix = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;
using KktFactor = Eigen::SimplicialLDLT<KktMatrix, Eigen::Lower, Eigen::AMDOrdering<int>>;

/// The system one active-set iteration solves, in the form of the unfactored KKT matrix:
///   M v+ - sum_free J_r^T lambda_r = body + sum_clamped J_r^T beta_r
///   -J_r v+ - Sigma_r lambda_r = eq_r  (free rows),   lambda_r = beta_r  (clamped rows)
struct KktRightSide {
  const Eigen::VectorXd* body;       // 6 per moving body
  const std::vector<double>* eq;     // per row
  const std::vector<double>* beta;   // per row (used where clamped)
};

class KktBorder {
 public:
  /// After a factorization of K0 with these clamped flags: forget all cached columns.
  void reset(const std::vector<char>& base_clamped);
  /// Rows whose clamped flag differs from K0's, and how many of them lack a cached column.
  void count(const std::vector<char>& clamped, int& changed, int& uncached) const;

  /// x = [v+; lambda] of the system with these clamped flags (lambda_r = beta_r when clamped).
  /// dof_a/dof_b: per row, the moving-body index of its bodies (-1 for fixed/world).
  void solve(const KktFactor& k0, const std::vector<ConstraintRow>& rows, const std::vector<int>& dof_a,
             const std::vector<int>& dof_b, const std::vector<char>& clamped, const KktRightSide& rhs,
             Eigen::VectorXd& x);

 private:
  static void forward(const KktFactor& k0, Eigen::VectorXd& y);   // y <- L^-1 y
  static void backward(const KktFactor& k0, Eigen::VectorXd& y);  // y <- L^-T y
  /// Caches w = L^-1 P B_r for row r and its Gram entries with the cached columns.
  void add_column(const KktFactor& k0, const std::vector<ConstraintRow>& rows, const std::vector<int>& dof_a,
                  const std::vector<int>& dof_b, int nv, int r);

  std::vector<char> base_;                 // clamped flags of K0
  std::vector<int> slot_;                  // per row: its cached column, -1 when none
  std::vector<Eigen::VectorXd> w_;         // per slot: L^-1 P B_r (permuted order)
  std::vector<std::vector<int>> support_;  // per slot: nonzero positions of w_
  Eigen::MatrixXd gram_;                   // w_s^T D^-1 w_t over slots
  std::vector<int> changed_, perm_;
  Eigen::VectorXd b_, b0_, y0_, y_;        // right side, last one forward-solved, its L^-1 P b
  bool y0_valid_ = false;
  Eigen::MatrixXd schur_;
  Eigen::VectorXd t_, ct_;
};

}  // namespace trackcosim::vehicle::detail
