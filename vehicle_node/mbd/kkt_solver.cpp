#include "vehicle_node/mbd/kkt_solver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

namespace trackcosim::vehicle::detail {

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Block pivoting changes every infeasible row at once; after this many iterations only the
// lowest-index one changes (Murty's rule), which cannot cycle on a P-matrix problem.
constexpr int kBlockPivotIterations = 5;
constexpr double kSlackTol = 1e-7;      // m/s
constexpr double kImpulseTol = 1e-10;   // N s, plus a relative part
// An iteration whose changed rows (relative to the factored states) exceed these is solved by
// a new factorization instead of the bordered system of kkt_border.h: on the 149-body track
// system one factorization (~0.4 ms) costs about as much as 30 sparse forward solves of new
// border columns, and the dense border LU grows as rows^3. Tuned there (32: 2.5 ms/step,
// 16: 2.9, 64: 3.0).
constexpr int kMaxBorderRows = 96;
constexpr int kMaxNewBorderColumns = 32;
}  // namespace

void KktSolver::build_pattern(const BodyStore& bodies, const std::vector<M6>& added_mass,
                              const std::vector<ConstraintRow>& rows) {
  nb_ = bodies.moving_count;
  nr_ = static_cast<int>(rows.size());
  // Rows touching each moving body, ascending (CSR by body), side 0 = a, 1 = b.
  std::vector<int> start(nb_ + 1, 0);
  for (const ConstraintRow& r : rows) {
    if (r.body_a >= 0 && bodies.dof[r.body_a] >= 0) ++start[bodies.dof[r.body_a] + 1];
    if (r.body_b >= 0 && bodies.dof[r.body_b] >= 0) ++start[bodies.dof[r.body_b] + 1];
  }
  for (int k = 0; k < nb_; ++k) start[k + 1] += start[k];
  std::vector<int> fill(start.begin(), start.end() - 1), touch(start[nb_]);
  for (int r = 0; r < nr_; ++r) {
    if (rows[r].body_a >= 0 && bodies.dof[rows[r].body_a] >= 0) touch[fill[bodies.dof[rows[r].body_a]]++] = 2 * r;
    if (rows[r].body_b >= 0 && bodies.dof[rows[r].body_b] >= 0) touch[fill[bodies.dof[rows[r].body_b]]++] = 2 * r + 1;
  }
  dof_a_.assign(nr_, -1);
  dof_b_.assign(nr_, -1);
  for (int r = 0; r < nr_; ++r) {
    if (rows[r].body_a >= 0) dof_a_[r] = bodies.dof[rows[r].body_a];
    if (rows[r].body_b >= 0) dof_b_[r] = bodies.dof[rows[r].body_b];
  }
  const int n = 6 * nb_ + nr_;
  outer_.assign(n + 1, 0);
  inner_.clear();
  jpos_.assign(12 * static_cast<std::size_t>(nr_), -1);
  diag_pos_.assign(nr_, -1);
  int pos = 0;
  for (int k = 0; k < nb_; ++k) {
    // With added masses every mass block is a full 6x6, whether or not its body has one this
    // step: the pattern then does not change as loads come and go.
    const bool full = !added_mass.empty();
    for (int c = 0; c < 6; ++c) {
      outer_[6 * k + c] = pos;
      // Mass block, lower triangle: m on the linear diagonal, I_world's lower part (all of it
      // with an added mass).
      const int last = c < 3 && !full ? c : 5;
      for (int rr = c; rr <= last; ++rr, ++pos) inner_.push_back(6 * k + rr);
      for (int t = start[k]; t < start[k + 1]; ++t, ++pos) {
        const int r = touch[t] / 2, side = touch[t] % 2;
        inner_.push_back(6 * nb_ + r);
        jpos_[12 * static_cast<std::size_t>(r) + 6 * side + c] = pos;
      }
    }
  }
  for (int r = 0; r < nr_; ++r, ++pos) {
    outer_[6 * nb_ + r] = pos;
    inner_.push_back(6 * nb_ + r);
    diag_pos_[r] = pos;
  }
  outer_[n] = pos;
}

void KktSolver::fill_values(const BodyStore& bodies, const std::vector<M3>& inertia_world,
                            const std::vector<M6>& added_mass, const std::vector<ConstraintRow>& rows) {
  free_values_.assign(inner_.size(), 0.0);
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const int k = bodies.dof[i];
    if (k < 0) continue;
    for (int c = 0; c < 3; ++c) free_values_[outer_[6 * k + c]] = bodies.mass[i];
    for (int c = 3; c < 6; ++c)
      for (int rr = c; rr < 6; ++rr) free_values_[outer_[6 * k + c] + rr - c] = inertia_world[k](rr - 3, c - 3);
    if (added_mass.empty()) continue;
    const M6& a = added_mass[static_cast<std::size_t>(k)];
    for (int c = 0; c < 6; ++c)
      for (int rr = c; rr < 6; ++rr) free_values_[outer_[6 * k + c] + rr - c] += a(rr, c);
  }
  for (int r = 0; r < nr_; ++r) {
    const int* jp = &jpos_[12 * static_cast<std::size_t>(r)];
    for (int c = 0; c < 6; ++c) {
      if (jp[c] >= 0) free_values_[jp[c]] = -rows[r].ja(c);
      if (jp[6 + c] >= 0) free_values_[jp[6 + c]] = -rows[r].jb(c);
    }
    free_values_[diag_pos_[r]] = -rows[r].sigma;
  }
}

void KktSolver::factorize(const std::vector<char>& clamped, bool analyze) {
  std::copy(free_values_.begin(), free_values_.end(), k_.valuePtr());
  for (int r = 0; r < nr_; ++r) {
    if (!clamped[r]) continue;
    // lambda_r is known: its column leaves the matrix (J^T beta joins the right side).
    const int* jp = &jpos_[12 * static_cast<std::size_t>(r)];
    for (int c = 0; c < 12; ++c)
      if (jp[c] >= 0) k_.valuePtr()[jp[c]] = 0.0;
    k_.valuePtr()[diag_pos_[r]] = -1.0;
  }
  if (analyze) {
    ldlt_.analyzePattern(k_);
    analyzed_outer_ = outer_;
    analyzed_inner_ = inner_;
    analyzed_ = true;
  }
  ldlt_.factorize(k_);
  if (ldlt_.info() != Eigen::Success)
    throw std::runtime_error("multibody solver: LDL^T factorization of the KKT matrix failed (" +
                             std::to_string(nb_) + " bodies, " + std::to_string(nr_) + " rows)");
  border_.reset(clamped);
}

KktResult KktSolver::solve(const BodyStore& bodies, const std::vector<V6>& momentum,
                           const std::vector<M3>& inertia_world, const std::vector<M6>& added_mass,
                           std::vector<ConstraintRow>& rows,
                           int max_iterations, std::vector<V6>& v_out) {
  KktResult res;
  auto t0 = Clock::now();
  build_pattern(bodies, added_mass, rows);
  fill_values(bodies, inertia_world, added_mass, rows);
  const int n = 6 * nb_ + nr_;
  k_.resize(n, n);
  k_.resizeNonZeros(static_cast<Eigen::Index>(inner_.size()));
  std::copy(outer_.begin(), outer_.end(), k_.outerIndexPtr());
  std::copy(inner_.begin(), inner_.end(), k_.innerIndexPtr());
  const bool same_pattern = analyzed_ && outer_ == analyzed_outer_ && inner_ == analyzed_inner_;
  std::vector<double> lo(nr_), hi(nr_), used_bound(nr_, 0.0);
  std::vector<char> forced(nr_, 0);
  // Friction bounds are frozen for the step: mu lambda_n of the previous step where the
  // contact existed, else of the first solve. Bounds that chase the normal impulse within
  // the step make block pivoting cycle on the statically indeterminate track-on-ground case.
  std::vector<double> frozen(nr_, -1.0);
  for (int r = 0; r < nr_; ++r) frozen[r] = rows[r].bound_hint;  // bounded rows with lo == hi this iteration (friction of a separated contact)
  clamped_.assign(nr_, 0);
  beta_.assign(nr_, 0.0);
  eq_.resize(nr_);
  for (int r = 0; r < nr_; ++r) eq_[r] = -rows[r].rhs;
  body_rhs_.resize(6 * nb_);
  for (int k = 0; k < nb_; ++k) body_rhs_.segment<6>(6 * k) = momentum[k];
  const KktRightSide right_side{&body_rhs_, &eq_, &beta_};
  Eigen::VectorXd x(n);
  res.assemble_seconds += since(t0);

  auto moving = [&](int body) { return body >= 0 && bodies.dof[body] >= 0; };
  auto slack = [&](const ConstraintRow& r) {
    double jv = r.sigma * r.lambda - r.rhs;
    if (moving(r.body_a)) jv += r.ja.dot(x.segment<6>(6 * bodies.dof[r.body_a]));
    if (moving(r.body_b)) jv += r.jb.dot(x.segment<6>(6 * bodies.dof[r.body_b]));
    return jv;
  };

  bool final_pass = false;
  for (int it = 0; it < std::max(1, max_iterations); ++it) {
    t0 = Clock::now();
    // Bounds of this iteration; friction follows the latest normal impulse.
    for (int r = 0; r < nr_; ++r) {
      ConstraintRow& row = rows[r];
      if (row.normal_row >= 0) {
        const double b = frozen[r] >= 0.0 ? frozen[r] : row.mu * std::max(0.0, rows[row.normal_row].lambda);
        lo[r] = -b, hi[r] = b;
      } else {
        lo[r] = row.lo, hi[r] = row.hi;
      }
      used_bound[r] = hi[r];
      forced[r] = row.bounded() && hi[r] - lo[r] <= 1e-300;
      clamped_[r] = forced[r] || row.state != RowState::kFree;
      if (clamped_[r]) {
        beta_[r] = forced[r] || row.state == RowState::kAtLower ? lo[r] : hi[r];
        row.lambda = beta_[r];
      }
    }
    res.assemble_seconds += since(t0);
    t0 = Clock::now();
    // Refactor at the first iteration, or when bordering the changed rows would cost more
    // back-substitutions than a factorization is worth.
    int changed = 0, uncached = 0;
    if (it > 0) border_.count(clamped_, changed, uncached);
    if (it == 0 || changed > kMaxBorderRows || uncached > kMaxNewBorderColumns) {
      factorize(clamped_, !same_pattern && res.factorizations == 0);
      res.reanalyzed = res.reanalyzed || (!same_pattern && res.factorizations == 0);
      ++res.factorizations;
    }
    border_.solve(ldlt_, rows, dof_a_, dof_b_, clamped_, right_side, x);
    res.solve_seconds += since(t0);
    ++res.iterations;
    for (int r = 0; r < nr_; ++r)
      if (!clamped_[r]) rows[r].lambda = x(6 * nb_ + r);

    // Pivoting: clamp free rows outside their bounds, free clamped rows pushing the wrong way.
    int changes = 0, first_bad = -1;
    bool bounds_moved = false;
    res.residual = res.bound_excess = 0.0;
    std::vector<std::pair<int, RowState>> change;
    for (int r = 0; r < nr_; ++r) {
      ConstraintRow& row = rows[r];
      if (!row.bounded()) continue;
      if (row.normal_row >= 0 && frozen[r] < 0.0) {
        frozen[r] = row.mu * std::max(0.0, rows[row.normal_row].lambda);
        if ((forced[r] || row.state != RowState::kFree) && std::abs(frozen[r] - used_bound[r]) > kImpulseTol + 1e-6 * frozen[r])
          bounds_moved = true;
      }
      if (forced[r]) continue;
      const double tol = kImpulseTol + 1e-9 * std::max(std::abs(lo[r]) < 1e300 ? std::abs(lo[r]) : 0.0,
                                                       std::abs(hi[r]) < 1e300 ? std::abs(hi[r]) : 0.0);
      RowState next = row.state;
      if (row.state == RowState::kFree) {
        if (row.lambda < lo[r] - tol) next = RowState::kAtLower;
        else if (row.lambda > hi[r] + tol) next = RowState::kAtUpper;
        res.bound_excess = std::max({res.bound_excess, lo[r] - row.lambda, row.lambda - hi[r]});
      } else {
        const double w = slack(row);
        if (row.state == RowState::kAtLower && w < -kSlackTol) next = RowState::kFree;
        if (row.state == RowState::kAtUpper && w > kSlackTol) next = RowState::kFree;
        res.residual = std::max(res.residual, row.state == RowState::kAtLower ? -w : w);
      }
      if (next != row.state) {
        ++changes;
        if (first_bad < 0) first_bad = r;
        change.emplace_back(r, next);
      }
    }
    if (changes == 0 && !bounds_moved) {
      res.converged = true;
      break;
    }
    res.converged = false;
    if (final_pass) break;
    if (it + 2 >= max_iterations) {
      // Last iteration: only clamp rows that left their bounds, so the impulses returned
      // respect every bound (a wrongly clamped row errs towards sliding/separating).
      final_pass = true;
      for (auto [r, st] : change)
        if (rows[r].state == RowState::kFree) rows[r].state = st;
      continue;
    }
    if (it < kBlockPivotIterations) {
      for (auto [r, s] : change) rows[r].state = s;
    } else if (first_bad >= 0) {
      for (auto [r, s] : change)
        if (r == first_bad) rows[r].state = s;
    }
  }
  v_out.resize(nb_);
  for (int k = 0; k < nb_; ++k) v_out[k] = x.segment<6>(6 * k);
  return res;
}

void KktSolver::project(const std::vector<ConstraintRow>& rows, const std::vector<double>& g,
                        std::vector<V6>& dx_out) {
  // Same matrix as the last iteration of solve(): clamped rows hold lambda = 0.
  body_rhs_.setZero(6 * nb_);
  eq_ = g;
  beta_.assign(nr_, 0.0);
  Eigen::VectorXd x;
  border_.solve(ldlt_, rows, dof_a_, dof_b_, clamped_, KktRightSide{&body_rhs_, &eq_, &beta_}, x);
  dx_out.resize(nb_);
  for (int k = 0; k < nb_; ++k) dx_out[k] = x.segment<6>(6 * k);
}

}  // namespace trackcosim::vehicle::detail
