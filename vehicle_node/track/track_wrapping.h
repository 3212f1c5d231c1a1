#pragma once
// The initial wrapped configuration of one track: pins placed at equal pitch (chord) along the
// hull path of the wheels, the last shoe closing the loop on the first pin. The chain has a
// fixed length, so the idler slides along its tensioner axis until the loop closes exactly;
// a chain that does not close anywhere within the tensioner travel is a WrapError naming the
// shoe counts that would.

#include <vector>

#include "vehicle_node/track/hull_path.h"
#include "vehicle_node/track/vehicle_template.h"

namespace trackcosim::vehicle {

struct TrackWrap {
  double idler_travel = 0.0;        ///< along the tensioner direction from the nominal position, m
  PlanePoint idler_center;
  std::vector<PlanePoint> pins;     ///< pins[i] is the rear pin of shoe i; shoe i spans pins i, i+1 (mod N)
  double path_length = 0.0;         ///< length of the hull path with the idler at idler_travel, m
  double closure_gap = 0.0;         ///< | |pins[N-1] - pins[0]| - pitch |, m (round-off only)
};

/// Radius of the circle the pins run on round a wheel. A shoe on a wheel is a chord: its contact
/// spheres, not its pins, touch the wheel. A sphere at (x_s, z_s) (shoe frame, z into the loop)
/// of radius rho touches a wheel of radius r when the chord lies at d = z_s + sqrt((r + rho)^2 -
/// x_s^2) from the centre; the binding sphere gives the largest d, and the pins then run on
/// R = sqrt(d^2 + (p/2)^2), a little outside r + pin_offset. Spheres that run in a double
/// wheel's gap do not touch it. Without any touching sphere: r + pin_offset.
double pin_circle_radius(const ShoeTemplate& shoes, const WheelTemplate& wheel);

/// The hull circles of a track with the idler moved by `idler_travel`.
std::vector<WrapCircle> track_circles(const TrackTemplate& track, double idler_travel);

/// Arc-length positions s_1, s_2, ... of pins placed at chord `pitch` from a pin at s = 0,
/// stopping at the first one past `s_end`.
std::vector<double> chain_positions(const HullPath& path, double pitch, double s_end);

/// Throws WrapError when the shoes cannot wrap the wheels.
TrackWrap wrap_track(const TrackTemplate& track);

}  // namespace trackcosim::vehicle
