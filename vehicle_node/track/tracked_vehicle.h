#pragma once
// A tracked vehicle assembled in a MultibodySystem from a VehicleTemplate: the chassis, and for
// each side a sprocket (motor on its revolute), an idler on a sliding carrier pushed by the
// tensioner spring, road wheels (on revolutes, or on sprung vertical sliders), rollers, and
// the shoes of the wrapped track joined pin to pin by revolutes, the last shoe closing the loop.
//
// Topology per side (-- joint, ~~ spring, .. contact):
//   chassis --revolute+motor-- sprocket
//   chassis --prismatic-- idler carrier --revolute-- idler;  chassis ~~tensioner~~ carrier
//   chassis --revolute-- road wheel          (or --prismatic-- carrier --revolute-- wheel, ~~spring~~)
//   chassis --revolute-- roller
//   shoe[i] --revolute at pin i+1-- shoe[i+1 mod N];  shoes .. wheels, shoes .. ground

#include <array>
#include <vector>

#include "vehicle_node/mbd/ground.h"
#include "vehicle_node/mbd/multibody_system.h"
#include "vehicle_node/track/track_wrapping.h"
#include "vehicle_node/track/vehicle_template.h"

namespace trackcosim::vehicle {

enum class Side : int { kLeft = 0, kRight = 1 };
inline constexpr std::array<Side, 2> kSides{Side::kLeft, Side::kRight};
inline const char* side_name(Side s) { return s == Side::kLeft ? "left" : "right"; }

/// Contact families: shoes touch wheels and the ground; wheels touch shoes only; sprocket
/// teeth touch only the shoes' pin spheres, which touch nothing else.
inline constexpr std::uint32_t kShoeFamily = 1;
inline constexpr std::uint32_t kWheelFamily = 2;
inline constexpr std::uint32_t kToothFamily = 3;
inline constexpr std::uint32_t kPinFamily = 4;

struct TrackAssembly {
  double lateral_y = 0.0;                 ///< y of the track plane in the chassis frame
  BodyId sprocket;
  JointId sprocket_axle;
  MotorId motor;
  BodyId idler, idler_carrier;
  JointId idler_slider;
  ForceElementId tensioner;
  std::vector<BodyId> road_wheels, road_wheel_carriers, rollers;
  std::vector<ForceElementId> suspension_springs;
  std::vector<BodyId> shoes;
  std::vector<JointId> pins;              ///< pins[i] joins shoes[i] and shoes[i+1 mod N]
};

class TrackedVehicle {
 public:
  /// Adds the vehicle to `system` (gravity, friction, contact families included). The chassis
  /// starts at the template's position, or, when it has none, at x = y = 0 with its lowest shoe
  /// `drop_height` above `ground`.
  TrackedVehicle(const VehicleTemplate& vehicle, MultibodySystem& system, const Ground& ground);

  const VehicleTemplate& model() const { return model_; }
  const TrackWrap& wrap() const { return wrap_; }
  BodyId chassis() const { return chassis_; }
  const TrackAssembly& track(Side s) const { return tracks_[static_cast<int>(s)]; }
  std::size_t shoe_count() const { return 2 * wrap_.pins.size(); }
  /// The contact spheres of one side's shoes, in the shoe's body frame (rigid ground and wheels).
  std::vector<LocalSphere> shoe_spheres(Side side) const;
  /// The same for a granular terrain (ShoeTemplate::terrain_spheres): what the co-simulation sends.
  std::vector<LocalSphere> terrain_shoe_spheres(Side side) const;

  /// Idler position along its tensioner axis from the nominal position (m): the wrap's travel
  /// plus the slider's displacement since assembly.
  double idler_travel(const MultibodySystem& system, Side s) const;
  /// Radius at which the chain leaves the sprocket: the track moves at sprocket speed times
  /// this. A chain of pitch p whose pins run on a circle of radius R advances p per
  /// 2 asin(p / 2R) of turn; R follows from where the shoes' contact spheres touch the sprocket.
  double sprocket_pitch_radius() const;

  /// Tensioner end stops: a stiff spring-damper pushing the carrier back inside
  /// [min_travel, max_travel] once it leaves it (explicit, stiffness chosen stable for h).
  /// Call before every step.
  void apply_travel_stops(MultibodySystem& system, double h) const;

 private:
  void build_track(MultibodySystem& system, Side side, Vec3 chassis_position);

  VehicleTemplate model_;
  TrackWrap wrap_;
  BodyId chassis_;
  std::array<TrackAssembly, 2> tracks_;
};

}  // namespace trackcosim::vehicle
