#pragma once
// The loaded-bed case (issue 15): a rigid plate the size of an M113 track shoe pressed into a
// settled bed of gravel with a load of kN. It is the terrain's half of a heavy vehicle's shoe
// without the coupling, small enough to compare solver settings by measurement. bench/loaded_bed
// prints its figures and tests/gpu/loaded_bed_test asserts a small one holds its load.
//
// The bed: polydisperse spheres dropped from a loose jittered lattice into a box with a floor
// and four frictionless walls (so that, at rest, the floor carries the whole weight and the
// wall friction of a silo, Janssen's effect, cannot hide a missing load), settled until still.
// The plate: one dynamic box body of the shoe's mass, centred on the bed, placed just above the
// highest grain under it, then loaded by a downward force ramped up over `ramp_time`.

#include <cstdint>
#include <functional>
#include <vector>

#include "gpu/dynamics/body_set.h"
#include "gpu/dynamics/step_settings.h"

namespace trackcosim::bench {

struct LoadedBedSpec {
  std::size_t grains = 10000;
  real radius = 0.0125;       ///< mean grain radius: 25 mm gravel
  real radius_spread = 0.1;   ///< radii uniform in radius (1 +- spread)
  real density = 2600;        ///< granite, kg/m^3
  real friction = 0.7;        ///< grain-grain and grain-plate
  /// Spheres per grain: 1 (spheres), 2 (a dimer), 3 (a flat trimer) or 4 (a tetrahedron), clumps of
  /// spheres of radius / 1.6 whose centres are 0.6 of that from the grain's centre, so that each
  /// grain fits in a sphere of `radius`. Spheres without rolling resistance roll past each other
  /// and give a bed a low friction angle; clumps interlock as angular gravel does.
  unsigned spheres_per_grain = 1;
  /// Diagnostic: grains' moments of inertia times this (1e6: grains that hardly turn, the limit
  /// of a very large rolling resistance).
  real inertia_scale = 1;
  real box_x = 0.8, box_y = 0.8;  ///< container, plate at its centre
  /// The plate: an M113 shoe's footprint (pitch 0.154 m along x, pad 0.38 m across) and mass.
  real plate_length = 0.154, plate_width = 0.38, plate_thickness = 0.04, plate_mass = 18.02;
  std::uint64_t seed = 2015;
};

/// Gids: floor 0, walls 1, grains from 2, the plate after the grains.
inline constexpr gpu::GlobalId kFloorGid = 0;

/// The grains in a loose jittered lattice above the floor (not yet settled).
gpu::BodySet loose_bed(const LoadedBedSpec& spec);

struct SettleReport {
  double simulated_seconds = 0, wall_seconds = 0, rms_speed = 0;
  std::size_t steps = 0;
};

/// Steps `bed` under gravity until the grains' rms speed stays below `rms_limit` (after at least
/// 0.1 s) or `max_time` passes; returns the settled bodies, velocities zeroed.
gpu::BodySet settle(const gpu::BodySet& bed, const gpu::StepSettings& settings, double rms_limit, double max_time,
                    SettleReport* report = nullptr);

/// Height of the highest grain top within the plate's footprint at the bed's centre.
real surface_under_plate(const gpu::BodySet& bed, const LoadedBedSpec& spec);

/// The settled bed with the plate added, its bottom `gap` above surface_under_plate.
gpu::BodySet with_plate(const gpu::BodySet& settled, const LoadedBedSpec& spec, real gap = 5e-4);

/// One loading run: how to load, for how long, with which step.
struct LoadCase {
  double load_newton = 10000;
  double ramp_time = 0.05;     ///< the force grows linearly to load_newton over this time
  double hold_time = 0.25;     ///< then stays constant for this long
  gpu::StepSettings settings;  ///< step size, solver, compliance
  bool record_last_residuals = false;  ///< keep the residual curve of the last step (records every step's)
};

/// What one step showed; `floor_force` is the floor's vertical contact force (N).
struct LoadSample {
  double time = 0, sinkage = 0, plate_velocity_z = 0, max_grain_speed = 0, residual = 0, floor_force = 0;
  double step_seconds = 0;
  Vec3 fastest_grain_position{0, 0, 0};  ///< where the fastest grain is (a pinch, a rattler)
  std::uint64_t contacts = 0;
  std::uint32_t iterations = 0;
};

/// The figures of a loading run: means over the last `window` of the hold (steady state) and
/// extremes over the whole of it.
struct LoadResult {
  std::vector<LoadSample> samples;
  double mean_sinkage = 0, sinkage_drift = 0;  ///< drift: mean of the window's last half minus its first half
  double max_grain_speed = 0;                  ///< over the whole run, ramp included
  double mean_floor_force = 0, expected_floor_force = 0;  ///< load + plate weight + bed weight
  double mean_step_seconds = 0, mean_residual = 0, mean_iterations = 0, mean_contacts = 0;
  std::vector<real> last_residual_curve;
  bool plate_lost = false;  ///< the plate passed through the bed to the floor
};

/// Runs `loaded` (with_plate's output) through `c`. `on_sample` (optional) sees every step.
LoadResult run_load_case(const gpu::BodySet& loaded, const LoadedBedSpec& spec, const LoadCase& c, double window,
                         const std::function<void(const LoadSample&)>& on_sample = {});

}  // namespace trackcosim::bench
