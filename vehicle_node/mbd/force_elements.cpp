#include "vehicle_node/mbd/force_elements.h"

namespace trackcosim::vehicle::detail {

SpringGeometry spring_geometry(const SpringDamper& s, const BodyStore& bodies) {
  SpringGeometry g;
  g.pa = bodies.x[s.a] + bodies.q[s.a] * s.ra;
  g.pb = bodies.x[s.b] + bodies.q[s.b] * s.rb;
  const V3 d = g.pb - g.pa;
  g.length = d.norm();
  // Coincident points have no line of action; the force is then taken along +X (documented).
  g.dir = g.length > 1e-12 ? V3(d / g.length) : V3::UnitX();
  g.rate = g.dir.dot(bodies.point_velocity(s.b, g.pb) - bodies.point_velocity(s.a, g.pa));
  return g;
}

double spring_force(const SpringDamper& s, const SpringGeometry& g) {
  return s.preload + s.stiffness * (s.rest_length - g.length) - s.damping * g.rate;
}

void apply_spring(const SpringDamper& s, const BodyStore& bodies, std::vector<V3>& force, std::vector<V3>& torque) {
  const SpringGeometry g = spring_geometry(s, bodies);
  const V3 f = spring_force(s, g) * g.dir;  // on b; -f on a
  force[s.b] += f;
  torque[s.b] += (g.pb - bodies.x[s.b]).cross(f);
  force[s.a] -= f;
  torque[s.a] -= (g.pa - bodies.x[s.a]).cross(f);
}

}  // namespace trackcosim::vehicle::detail
