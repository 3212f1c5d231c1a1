#include "vehicle_node/mbd/joints.h"

#include <stdexcept>
#include <string>

namespace trackcosim::vehicle::detail {

Joint make_joint(JointType type, const BodyStore& bodies, int a, int b, const V3& world_point,
                 const V3& world_axis) {
  const std::string who = std::string(type == JointType::kRevolute ? "revolute" : "prismatic") +
                          " joint between '" + bodies.name[a] + "' and '" + bodies.name[b] + "'";
  if (a == b) throw std::invalid_argument(who + ": a joint needs two different bodies");
  if (bodies.fixed(a) && bodies.fixed(b)) throw std::invalid_argument(who + ": both bodies are fixed");
  if (!(world_axis.norm() > 1e-12) || !world_axis.allFinite())
    throw std::invalid_argument(who + ": axis must be a non-zero finite vector");
  if (!world_point.allFinite()) throw std::invalid_argument(who + ": point must be finite");
  Joint j;
  j.type = type;
  j.a = a;
  j.b = b;
  const V3 n = world_axis.normalized();
  const Eigen::Quaterniond qa = bodies.q[a], qb = bodies.q[b];
  j.ra = qa.conjugate() * (world_point - bodies.x[a]);
  j.rb = qb.conjugate() * (world_point - bodies.x[b]);
  j.axis_a = qa.conjugate() * n;
  j.axis_b = qb.conjugate() * n;
  V3 t1, t2;
  tangent_basis(j.axis_a, V3::UnitX(), t1, t2);
  j.u_a = t1;
  j.v_a = t2;
  j.q_rel0 = qa.conjugate() * qb;
  return j;
}

namespace {

// Row with a's and b's Jacobians and the SPOOK right-hand side for violation g.
void push_row(std::vector<ConstraintRow>& rows, const BodyStore& bodies, int a, int b, const V6& ja,
              const V6& jb, double g, const Spook& s) {
  ConstraintRow r;
  r.body_a = a;
  r.body_b = b;
  r.ja = ja;
  r.jb = jb;
  V6 va, vb;
  va << bodies.v[a], bodies.w[a];
  vb << bodies.v[b], bodies.w[b];
  r.sigma = s.sigma;
  r.rhs = -s.a * g + s.b * (ja.dot(va) + jb.dot(vb));
  rows.push_back(r);
}


}  // namespace

void append_joint_rows(Joint& j, const BodyStore& bodies, const Spook& s, std::vector<ConstraintRow>& rows) {
  j.first_row = static_cast<int>(rows.size());
  const V3 ra = bodies.q[j.a] * j.ra, rb = bodies.q[j.b] * j.rb;
  const V3 pa = bodies.x[j.a] + ra, pb = bodies.x[j.b] + rb;
  const V3 u = bodies.q[j.a] * j.u_a, v = bodies.q[j.a] * j.v_a;
  if (j.type == JointType::kRevolute) {
    // C = pa - pb = 0 (3 rows): dC/dt = v_a + w_a x ra - v_b - w_b x rb.
    for (int k = 0; k < 3; ++k) {
      const V3 e = V3::Unit(k);
      push_row(rows, bodies, j.a, j.b, stack(e, ra.cross(e)), stack(-e, -rb.cross(e)), (pa - pb)(k), s);
    }
    // C = u . n_b = 0, v . n_b = 0 with u, v normal to the axis on a, n_b the axis on b:
    // dC/dt = (w_a - w_b) . (u x n_b).
    const V3 nb = bodies.q[j.b] * j.axis_b;
    for (const V3& p : {u, v}) {
      const V3 c = p.cross(nb);
      push_row(rows, bodies, j.a, j.b, stack(V3::Zero(), c), stack(V3::Zero(), -c), p.dot(nb), s);
    }
    return;
  }
  // Prismatic. d = pb - pa; C = u . d = 0, v . d = 0:
  // dC/dt = -u.v_a - ((d + ra) x u).w_a + u.v_b + (rb x u).w_b.
  const V3 d = pb - pa;
  for (const V3& p : {u, v})
    push_row(rows, bodies, j.a, j.b, stack(-p, -(d + ra).cross(p)), stack(p, rb.cross(p)), p.dot(d), s);
  // Orientation lock: q_err = q_b (q_a q_rel0)^-1 ~ (1, theta / 2), theta world-frame;
  // C = theta = 0, dC/dt = w_b - w_a.
  Eigen::Quaterniond qe = bodies.q[j.b] * (bodies.q[j.a] * j.q_rel0).conjugate();
  if (qe.w() < 0) qe.coeffs() = -qe.coeffs();
  const V3 theta = 2.0 * qe.vec();
  for (int k = 0; k < 3; ++k) {
    const V3 e = V3::Unit(k);
    push_row(rows, bodies, j.a, j.b, stack(V3::Zero(), -e), stack(V3::Zero(), e), theta(k), s);
  }
}

void append_limit_rows(Joint& j, const BodyStore& bodies, const Spook& s, double h,
                       std::vector<ConstraintRow>& rows) {
  j.limit_row = static_cast<int>(rows.size());
  const V3 ra = bodies.q[j.a] * j.ra, rb = bodies.q[j.b] * j.rb;
  const V3 d = bodies.x[j.b] + rb - bodies.x[j.a] - ra, n = bodies.q[j.a] * j.axis_a;
  // ds/dt = -n.v_a - ((d + ra) x n).w_a + n.v_b + (rb x n).w_b
  const V6 ja = stack(-n, -(d + ra).cross(n)), jb = stack(n, rb.cross(n));
  const double travel = n.dot(d);
  for (int side = 0; side < 2; ++side) {
    const double sign = side == 0 ? 1.0 : -1.0;
    const double gap = side == 0 ? travel - j.min_travel : j.max_travel - travel;
    push_row(rows, bodies, j.a, j.b, sign * ja, sign * jb, gap, s);
    ConstraintRow& r = rows.back();
    if (gap >= 0.0) r.rhs = -gap / h;
    r.lo = 0.0;
    r.state = j.limit_state[side];
  }
}

void joint_row_violations(const Joint& j, const BodyStore& bodies, double g[5]) {
  const V3 pa = bodies.x[j.a] + bodies.q[j.a] * j.ra, pb = bodies.x[j.b] + bodies.q[j.b] * j.rb;
  const V3 u = bodies.q[j.a] * j.u_a, v = bodies.q[j.a] * j.v_a;
  if (j.type == JointType::kRevolute) {
    const V3 nb = bodies.q[j.b] * j.axis_b;
    for (int k = 0; k < 3; ++k) g[k] = (pa - pb)(k);
    g[3] = u.dot(nb);
    g[4] = v.dot(nb);
    return;
  }
  g[0] = u.dot(pb - pa);
  g[1] = v.dot(pb - pa);
  Eigen::Quaterniond qe = bodies.q[j.b] * (bodies.q[j.a] * j.q_rel0).conjugate();
  if (qe.w() < 0) qe.coeffs() = -qe.coeffs();
  for (int k = 0; k < 3; ++k) g[2 + k] = 2.0 * qe.vec()(k);
}

double joint_position_violation(const Joint& j, const BodyStore& bodies) {
  const V3 pa = bodies.x[j.a] + bodies.q[j.a] * j.ra, pb = bodies.x[j.b] + bodies.q[j.b] * j.rb;
  if (j.type == JointType::kRevolute) return (pa - pb).norm();
  const V3 d = pb - pa, n = bodies.q[j.a] * j.axis_a;
  return (d - n.dot(d) * n).norm();
}

double prismatic_travel(const Joint& j, const BodyStore& bodies) {
  const V3 pa = bodies.x[j.a] + bodies.q[j.a] * j.ra, pb = bodies.x[j.b] + bodies.q[j.b] * j.rb;
  return (bodies.q[j.a] * j.axis_a).dot(pb - pa);
}

V3 joint_axis_world(const Joint& j, const BodyStore& bodies) { return bodies.q[j.a] * j.axis_a; }

}  // namespace trackcosim::vehicle::detail
