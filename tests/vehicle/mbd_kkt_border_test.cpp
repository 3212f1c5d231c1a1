// The bordered active-set solve (vehicle_node/mbd/kkt_border.h) against a fresh dense solve:
// after factoring K0 for one set of clamped rows, solving for other clamped sets through the
// border must give the solution of the KKT system of those sets to round-off (rel. 1e-9).

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "vehicle_node/mbd/kkt_border.h"

namespace trackcosim::vehicle::detail {
namespace {

constexpr int kBodies = 4, kRows = 14, kNv = 6 * kBodies, kN = kNv + kRows;

struct Problem {
  std::vector<ConstraintRow> rows;
  std::vector<int> dof_a, dof_b;
  Eigen::VectorXd body;
  std::vector<double> eq, beta;
};

Problem make_problem() {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Problem p;
  for (int r = 0; r < kRows; ++r) {
    ConstraintRow row;
    row.body_a = r % kBodies;
    row.body_b = r % 3 == 0 ? -1 : (r + 1) % kBodies;  // some rows against the world
    for (int c = 0; c < 6; ++c) row.ja(c) = u(rng), row.jb(c) = row.body_b >= 0 ? u(rng) : 0.0;
    row.sigma = 1e-4 * (1.0 + r);
    p.rows.push_back(row);
    p.dof_a.push_back(row.body_a);
    p.dof_b.push_back(row.body_b);
    p.eq.push_back(u(rng));
    p.beta.push_back(u(rng));
  }
  p.body = Eigen::VectorXd::NullaryExpr(kNv, [&] { return u(rng); });
  return p;
}

// KKT matrix of the given clamped flags: M = diag(mass 1..4, inertia 0.1..0.4), clamped rows
// replaced by lambda_r = beta_r (their column moved to the right side).
Eigen::MatrixXd kkt(const Problem& p, const std::vector<char>& clamped, Eigen::VectorXd* rhs) {
  Eigen::MatrixXd k = Eigen::MatrixXd::Zero(kN, kN);
  for (int b = 0; b < kBodies; ++b)
    for (int c = 0; c < 6; ++c) k(6 * b + c, 6 * b + c) = c < 3 ? 1.0 + b : 0.1 * (1.0 + b);
  if (rhs) *rhs = Eigen::VectorXd::Zero(kN);
  if (rhs) rhs->head(kNv) = p.body;
  for (int r = 0; r < kRows; ++r) {
    const ConstraintRow& row = p.rows[r];
    if (clamped[r]) {
      k(kNv + r, kNv + r) = -1.0;
      if (rhs) {
        (*rhs)(kNv + r) = -p.beta[r];
        rhs->segment<6>(6 * row.body_a) += row.ja * p.beta[r];
        if (row.body_b >= 0) rhs->segment<6>(6 * row.body_b) += row.jb * p.beta[r];
      }
      continue;
    }
    k.block<1, 6>(kNv + r, 6 * row.body_a) = -row.ja.transpose();
    k.block<6, 1>(6 * row.body_a, kNv + r) = -row.ja;
    if (row.body_b >= 0) {
      k.block<1, 6>(kNv + r, 6 * row.body_b) = -row.jb.transpose();
      k.block<6, 1>(6 * row.body_b, kNv + r) = -row.jb;
    }
    k(kNv + r, kNv + r) = -row.sigma;
    if (rhs) (*rhs)(kNv + r) = p.eq[r];
  }
  return k;
}

TEST(MbdKktBorder, BorderedSolveMatchesRefactoredSolve) {
  const Problem p = make_problem();
  std::vector<char> base(kRows, 0);
  for (int r : {1, 4, 9}) base[r] = 1;
  const Eigen::MatrixXd k0 = kkt(p, base, nullptr);
  KktFactor f;
  f.compute(KktMatrix(k0.sparseView()));
  ASSERT_EQ(f.info(), Eigen::Success);
  KktBorder border;
  border.reset(base);
  const KktRightSide rhs{&p.body, &p.eq, &p.beta};
  // Successive active sets as block pivoting would visit them: none, both kinds, and back.
  const std::vector<std::vector<int>> flips{{}, {2}, {2, 4}, {2, 4, 7, 9, 13}, {4}, {0, 1, 4, 9, 11}};
  for (const auto& flip : flips) {
    std::vector<char> clamped = base;
    for (int r : flip) clamped[r] = !clamped[r];
    Eigen::VectorXd x, b;
    border.solve(f, p.rows, p.dof_a, p.dof_b, clamped, rhs, x);
    const Eigen::VectorXd expected = kkt(p, clamped, &b).partialPivLu().solve(b);
    EXPECT_LT((x - expected).norm(), 1e-9 * expected.norm()) << "flipped rows: " << flip.size();
    for (int r = 0; r < kRows; ++r) {
      if (clamped[r]) {
        EXPECT_DOUBLE_EQ(x(kNv + r), p.beta[r]);
      }
    }
  }
}

}  // namespace
}  // namespace trackcosim::vehicle::detail
