#pragma once
// The width of the ghost layer around a subdomain.
//
// A contact between an owned body and another body needs the other body within
// 2 r_max + envelope of the owner's box. Bodies and contact midpoints move at most
// max_displacement per step, and a ghost list is one step old when it serves a migration (the
// body that enters a box must already be a ghost there) or a warm start (the contact's next
// solver must have its impulse): hence two more displacements.
//
//   width = 2 r_max + envelope + 2 max_displacement

#include <cmath>
#include <stdexcept>
#include <string>

#include "math/real.h"

namespace trackcosim::domain {

inline real ghost_width(real max_radius, real envelope, real max_displacement) {
  if (!(std::isfinite(max_radius) && max_radius > 0))
    throw std::invalid_argument("ghost width: largest radius must be > 0, got " + std::to_string(max_radius));
  if (!(std::isfinite(envelope) && envelope >= 0))
    throw std::invalid_argument("ghost width: envelope must be >= 0, got " + std::to_string(envelope));
  if (!(std::isfinite(max_displacement) && max_displacement >= 0))
    throw std::invalid_argument("ghost width: largest displacement per step must be >= 0, got " +
                                std::to_string(max_displacement));
  return 2 * max_radius + envelope + 2 * max_displacement;
}

}  // namespace trackcosim::domain
