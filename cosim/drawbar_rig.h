#pragma once
// The drawbar-pull rig of the mobility tests (docs/mobility.md): what a soil-bin test imposes on
// a tracked vehicle over time, and the rig.csv it is measured into. vehicle_node applies it to
// its own multibody model (vehicle_node/rig/); an external vehicle model reads the same schedule
// and writes the same file through this header or its C form (coupler_c.h, tcs_rig_*), so
// `tools/trackcosim mobility` analyses both alike.
//
// A rig file (JSON, comments allowed; every key optional but "mode"):
//   {"mode": "slip",        // slip: track speed held, chassis speed imposed at (1 - slip) x track
//                           //   speed; the force that takes is the drawbar pull
//                           // pull: track speed held, a horizontal force holds the chassis back;
//                           //   the slip is measured
//                           // towed: sprockets free, chassis speed imposed; the force it takes
//                           //   is the motion resistance
//    "slip": 0.2, "pull": 1000, "track_speed": 0.5, "speed": 0.3,
//    "slope_deg": 0,        // the ground rises along +x (gravity tilted about y)
//    "rest_time": 0.2, "ramp_time": 0.5, "settle_time": 0.5,
//    "hitch": [0, 0, 0]}    // where the rig holds the chassis: chassis frame, from its centre of mass
//
// Phases: rest (the vehicle sinks in at standstill: tracks and chassis held still, no pull),
// ramp (every set-point rises linearly from 0 to its value), settle (held at the operating point
// while the transient of the ramp dies out), measure (from rest + ramp + settle to the end).

#include <filesystem>
#include <string>
#include <string_view>

#include "math/vec3.h"
#include "io/csv_stream.h"
#include "io/json_fields.h"

namespace trackcosim::cosim {

enum class RigMode { kSlip, kPull, kTowed };
enum class RigPhase { kRest, kRamp, kSettle, kMeasure };
const char* rig_mode_name(RigMode m);
const char* rig_phase_name(RigPhase p);

struct RigSettings {
  RigMode mode = RigMode::kSlip;
  double slip = 0.0;           ///< slip mode: imposed slip, in [-1, 1]
  double pull = 0.0;           ///< pull mode: the force holding the vehicle back, N (0: free running)
  double track_speed = 0.5;    ///< slip and pull modes: sprocket speed x pitch radius held, m/s
  double speed = 0.3;          ///< towed mode: chassis forward speed, m/s
  double slope_deg = 0.0;      ///< ground rising along +x, degrees, in (-60, 60)
  double rest_time = 0.2, ramp_time = 0.5, settle_time = 0.5;  ///< s
  Vec3 hitch{0.0, 0.0, 0.0};   ///< chassis frame, from the centre of mass, m
  std::string source;          ///< the file it came from, for messages and run.json

  double measure_from() const { return rest_time + ramp_time + settle_time; }
};

/// Throws io::ConfigError "<file>: <key>: <why>".
RigSettings read_rig_settings(const io::JsonField& section);
RigSettings load_rig_settings(const std::filesystem::path& file);

/// The set-points at time t (s from the start of the coupling).
struct RigTargets {
  RigPhase phase;
  bool tracks_driven;        ///< false: sprockets free (towed mode)
  double track_speed;        ///< m/s (tracks_driven)
  bool chassis_speed_held;   ///< slip and towed modes, and every mode at rest
  double chassis_speed;      ///< m/s (chassis_speed_held)
  double pull;               ///< N holding the chassis back (pull mode)
};
RigTargets rig_targets(const RigSettings& rig, double t);

/// Gravity tilted for the slope: the ground rises along +x, |g| kept (z up).
Vec3 slope_gravity(const RigSettings& rig, Vec3 gravity);

/// 1 - chassis speed / track speed; NaN when the tracks stand (|track speed| < 1 mm/s).
double track_slip(double chassis_speed, double track_speed);

/// One row of rig.csv: what the rig measures at one output time (SI; x forward along the slope).
struct RigRow {
  double t = 0;
  RigPhase phase = RigPhase::kRest;
  double chassis_x = 0, chassis_z = 0, chassis_vx = 0, pitch_deg = 0;  ///< pitch + nose up
  double sprocket_speed[2] = {0, 0}, sprocket_torque[2] = {0, 0};     ///< left, right; rad/s, N m
  double track_speed = 0;    ///< mean of the sides' sprocket speed x pitch radius, m/s
  double drawbar_pull = 0;   ///< force of the vehicle on the rig, + forward (towed: - resistance), N
  double weight = 0;         ///< m |g|, N
  double ground_fx = 0, ground_fz = 0;  ///< terrain (or rigid ground) force on all shoes, N
};

inline constexpr std::string_view kRigCsvHeader =
    "t,phase,chassis_x,chassis_z,chassis_vx,pitch_deg,sprocket_speed_left,sprocket_speed_right,"
    "sprocket_torque_left,sprocket_torque_right,track_speed,slip,drawbar_pull,weight,ground_fx,ground_fz";

/// rig.csv in a run's output folder, written row by row (io::CsvStream) and flushed per row.
class RigCsv {
 public:
  /// `rows_before`: whole lines a resumed run starts with (the rows of the checkpoint's text).
  explicit RigCsv(const std::filesystem::path& folder, std::string_view rows_before = {});
  void write(const RigRow& row);
  /// The file's text so far, header included (what a checkpoint keeps). Throws io::OutputError.
  std::string text() { return csv_.text(); }

 private:
  io::CsvStream csv_;
  std::string line_;
};

}  // namespace trackcosim::cosim
