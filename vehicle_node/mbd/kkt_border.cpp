#include "vehicle_node/mbd/kkt_border.h"

#include <algorithm>

namespace trackcosim::vehicle::detail {

// With K0 = P^T L D L^T P, the border products need only forward solves:
//   B_i^T K0^-1 B_j = w_i^T D^-1 w_j,   w = L^-1 P B  (sparse: a border column has at most 12
// nonzeros, so w lives on their elimination-tree ancestors),
// and the solution one backward solve: x = P^T L^-T D^-1 (L^-1 P b - W t).

void KktBorder::reset(const std::vector<char>& base_clamped) {
  base_ = base_clamped;
  slot_.assign(base_.size(), -1);
  w_.clear();
  support_.clear();
  y0_valid_ = false;
}

void KktBorder::count(const std::vector<char>& clamped, int& changed, int& uncached) const {
  changed = uncached = 0;
  for (std::size_t r = 0; r < base_.size(); ++r)
    if (clamped[r] != base_[r]) {
      ++changed;
      if (slot_[r] < 0) ++uncached;
    }
}

void KktBorder::forward(const KktFactor& k0, Eigen::VectorXd& y) {
  const auto& l = k0.matrixL().nestedExpression();
  const int* lp = l.outerIndexPtr();
  const int* li = l.innerIndexPtr();
  const double* lx = l.valuePtr();
  const int n = static_cast<int>(y.size());
  for (int j = 0; j < n; ++j) {
    const double yj = y(j);
    if (yj == 0.0) continue;  // skips everything off the ancestors of a sparse right side
    for (int p = lp[j]; p < lp[j + 1]; ++p) y(li[p]) -= lx[p] * yj;
  }
}

void KktBorder::backward(const KktFactor& k0, Eigen::VectorXd& y) {
  const auto& l = k0.matrixL().nestedExpression();
  const int* lp = l.outerIndexPtr();
  const int* li = l.innerIndexPtr();
  const double* lx = l.valuePtr();
  for (int j = static_cast<int>(y.size()) - 1; j >= 0; --j) {
    double s = y(j);
    for (int p = lp[j]; p < lp[j + 1]; ++p) s -= lx[p] * y(li[p]);
    y(j) = s;
  }
}

void KktBorder::add_column(const KktFactor& k0, const std::vector<ConstraintRow>& rows, const std::vector<int>& dof_a,
                           const std::vector<int>& dof_b, int nv, int r) {
  const int n = static_cast<int>(perm_.size());
  Eigen::VectorXd w = Eigen::VectorXd::Zero(n);
  if (!base_[r]) {
    w(perm_[nv + r]) = 1.0;
  } else {
    for (int c = 0; c < 6; ++c) {
      if (dof_a[r] >= 0) w(perm_[6 * dof_a[r] + c]) = -rows[r].ja(c);
      if (dof_b[r] >= 0) w(perm_[6 * dof_b[r] + c]) = -rows[r].jb(c);
    }
  }
  forward(k0, w);
  std::vector<int> support;
  for (int i = 0; i < n; ++i)
    if (w(i) != 0.0) support.push_back(i);
  // Gram entries w_s^T D^-1 w with every cached column s, and with itself.
  const int slot = static_cast<int>(w_.size());
  if (gram_.rows() <= slot) gram_.conservativeResize(2 * slot + 16, 2 * slot + 16);
  const auto& d = k0.vectorD();
  for (int s = 0; s <= slot; ++s) {
    const std::vector<int>& sup = s < slot ? support_[s] : support;
    const Eigen::VectorXd& ws = s < slot ? w_[s] : w;
    double g = 0.0;
    for (int i : sup) g += ws(i) * w(i) / d(i);
    gram_(s, slot) = gram_(slot, s) = g;
  }
  w_.push_back(std::move(w));
  support_.push_back(std::move(support));
  slot_[r] = slot;
}

void KktBorder::solve(const KktFactor& k0, const std::vector<ConstraintRow>& rows, const std::vector<int>& dof_a,
                      const std::vector<int>& dof_b, const std::vector<char>& clamped, const KktRightSide& rhs,
                      Eigen::VectorXd& x) {
  const int nr = static_cast<int>(rows.size());
  const int nv = static_cast<int>(rhs.body->size());
  const int n = nv + nr;
  // Position of each unknown in the factorization's order (the AMD permutation P).
  perm_.resize(n);
  if (k0.permutationP().size() == n) {
    std::copy_n(k0.permutationP().indices().data(), n, perm_.begin());
  } else {
    for (int i = 0; i < n; ++i) perm_[i] = i;
  }
  const std::vector<double>& eq = *rhs.eq;
  const std::vector<double>& beta = *rhs.beta;
  // b: the right side in K0's form. Rows clamped in both K0 and now keep J^T beta on the
  // momentum side; rows clamped only now get beta through the border (their K0 column stays).
  b_ = *rhs.body;
  b_.conservativeResize(n);
  changed_.clear();
  for (int r = 0; r < nr; ++r) {
    if (clamped[r] != base_[r]) changed_.push_back(r);
    if (!base_[r]) {
      b_(nv + r) = eq[r];
    } else if (clamped[r]) {
      b_(nv + r) = -beta[r];
      if (dof_a[r] >= 0) b_.segment<6>(6 * dof_a[r]) += rows[r].ja * beta[r];
      if (dof_b[r] >= 0) b_.segment<6>(6 * dof_b[r]) += rows[r].jb * beta[r];
    } else {
      b_(nv + r) = 0.0;  // dummy component of a freed row; its impulse is t_r
    }
  }
  // Within a step b changes only when a row clamped in K0 changes its bound: reuse L^-1 P b.
  if (!y0_valid_ || b_ != b0_) {
    y0_.resize(n);
    for (int i = 0; i < n; ++i) y0_(perm_[i]) = b_(i);
    forward(k0, y0_);
    b0_ = b_;
    y0_valid_ = true;
  }
  for (int r : changed_)
    if (slot_[r] < 0) add_column(k0, rows, dof_a, dof_b, nv, r);

  const auto& d = k0.vectorD();
  const int m = static_cast<int>(changed_.size());
  schur_.resize(m, m);
  t_.resize(m);
  ct_.resize(m);
  for (int j = 0; j < m; ++j) {
    const int rj = changed_[j], sj = slot_[rj];
    for (int i = 0; i < m; ++i) schur_(i, j) = -gram_(slot_[changed_[i]], sj);
    if (base_[rj]) schur_(j, j) -= rows[rj].sigma;
    double bx0 = 0.0;  // B_j^T K0^-1 b
    for (int i : support_[sj]) bx0 += w_[sj](i) * y0_(i) / d(i);
    ct_(j) = (base_[rj] ? eq[rj] : beta[rj]) - bx0;
  }
  if (m > 0) t_ = schur_.partialPivLu().solve(ct_);
  y_ = y0_;
  for (int j = 0; j < m; ++j) {
    const int sj = slot_[changed_[j]];
    for (int i : support_[sj]) y_(i) -= t_(j) * w_[sj](i);
  }
  y_.array() /= d.array();
  backward(k0, y_);
  x.resize(n);
  for (int i = 0; i < n; ++i) x(i) = y_(perm_[i]);
  for (int j = 0; j < m; ++j) {
    const int r = changed_[j];
    x(nv + r) = base_[r] ? t_(j) : beta[r];
  }
}

}  // namespace trackcosim::vehicle::detail
