#pragma once
// Compliant contacts: a body whose contacts behave as a spring-damper instead of a rigid,
// non-penetrating constraint. The co-simulation gives the track-shoe proxies this law: a
// kinematic proxy is infinitely stiff to the terrain, and an explicit coupling through an
// infinitely stiff interface does not settle (docs/protocol.md, "Shoe contact law"). The
// reference co-simulation (gvsets-2018, sec. 2.3) uses a penalty (DEM-P) terrain for the same
// reason. Contacts between two rigid bodies keep the CCP law unchanged.
//
// Within the CCP the spring-damper is a regularised normal row (implicit in the step, so it is
// unconditionally stable for the grains whatever their mass). With the force
// f = k (-Phi_{n+1}) - c dPhi/dt, Phi_{n+1} = Phi_n + h dPhi/dt and gamma = h f >= 0:
//   0 <= gamma_n  _|_  D_n^T v + b + eps gamma_n >= 0,
//   b = k Phi_n / (h k + c),  eps = 1 / (h (h k + c)).
// k -> infinity gives back b = Phi_n / h and eps = 0. Friction stays a cone on gamma_n.

#include "gpu/collision/shape_scene.h"
#include "math/host_device.h"
#include "math/real.h"

namespace trackcosim::gpu {

struct CompliantBody {
  GlobalId gid = 0;
  real stiffness = 0;  ///< N/m per contact, > 0
  real damping = 0;    ///< N s/m per contact, >= 0
};

/// Spring and damper of a contact between two compliant bodies: the two in series.
TRACKCOSIM_HD inline real in_series(real a, real b) { return a > 0 && b > 0 ? a * b / (a + b) : real(0); }

}  // namespace trackcosim::gpu
