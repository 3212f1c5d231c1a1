#include "cosim/drawbar_rig.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "io/number_text.h"

namespace trackcosim::cosim {

const char* rig_mode_name(RigMode m) {
  switch (m) {
    case RigMode::kSlip: return "slip";
    case RigMode::kPull: return "pull";
    case RigMode::kTowed: return "towed";
  }
  return "?";
}

const char* rig_phase_name(RigPhase p) {
  switch (p) {
    case RigPhase::kRest: return "rest";
    case RigPhase::kRamp: return "ramp";
    case RigPhase::kSettle: return "settle";
    case RigPhase::kMeasure: return "measure";
  }
  return "?";
}

RigSettings read_rig_settings(const io::JsonField& root) {
  root.expect_object({"mode", "slip", "pull", "track_speed", "speed", "slope_deg", "rest_time", "ramp_time",
                      "settle_time", "hitch"});
  RigSettings r;
  const std::string mode = root.member("mode").one_of({"slip", "pull", "towed"});
  r.mode = mode == "slip" ? RigMode::kSlip : mode == "pull" ? RigMode::kPull : RigMode::kTowed;
  // A key of another mode is refused rather than ignored: "slip" in a pull run is a mistake.
  const auto only_for = [&root, &mode](std::string_view key, std::initializer_list<std::string_view> modes) {
    const auto f = root.optional_member(key);
    if (f && std::find(modes.begin(), modes.end(), mode) == modes.end())
      f->fail("is not used in " + mode + " mode");
    return f;
  };
  if (const auto f = only_for("slip", {"slip"})) {
    r.slip = f->number();
    if (!(r.slip >= -1.0 && r.slip <= 1.0)) f->fail("expected a slip in [-1, 1]");
  }
  if (const auto f = only_for("pull", {"pull"})) r.pull = f->number();
  if (const auto f = only_for("track_speed", {"slip", "pull"})) r.track_speed = f->positive_number();
  if (const auto f = only_for("speed", {"towed"})) r.speed = f->positive_number();
  if (const auto f = root.optional_member("slope_deg")) {
    r.slope_deg = f->number();
    if (!(std::fabs(r.slope_deg) < 60.0)) f->fail("expected an angle in degrees between -60 and 60");
  }
  if (const auto f = root.optional_member("rest_time")) r.rest_time = f->non_negative_number();
  if (const auto f = root.optional_member("ramp_time")) r.ramp_time = f->non_negative_number();
  if (const auto f = root.optional_member("settle_time")) r.settle_time = f->non_negative_number();
  if (const auto f = root.optional_member("hitch")) r.hitch = f->vec3();
  return r;
}

RigSettings load_rig_settings(const std::filesystem::path& file) {
  const nlohmann::json document = io::load_json_document(file);
  RigSettings r = read_rig_settings(io::JsonField(document, file.string()));
  r.source = file.string();
  return r;
}

RigTargets rig_targets(const RigSettings& rig, double t) {
  RigTargets out{};
  const double after_rest = t - rig.rest_time;
  out.phase = after_rest < 0 ? RigPhase::kRest
              : after_rest < rig.ramp_time ? RigPhase::kRamp
              : t < rig.measure_from() ? RigPhase::kSettle
                                       : RigPhase::kMeasure;
  // 0 at rest, linear over the ramp, 1 after it (a ramp of zero length is a step).
  const double ramp = after_rest < 0 ? 0.0 : rig.ramp_time > 0 ? std::min(1.0, after_rest / rig.ramp_time) : 1.0;
  out.tracks_driven = rig.mode != RigMode::kTowed;
  out.track_speed = out.tracks_driven ? ramp * rig.track_speed : 0.0;
  out.chassis_speed_held = rig.mode != RigMode::kPull || out.phase == RigPhase::kRest;
  out.chassis_speed = rig.mode == RigMode::kSlip    ? (1.0 - rig.slip) * out.track_speed
                      : rig.mode == RigMode::kTowed ? ramp * rig.speed
                                                    : 0.0;
  out.pull = rig.mode == RigMode::kPull ? ramp * rig.pull : 0.0;
  return out;
}

Vec3 slope_gravity(const RigSettings& rig, Vec3 gravity) {
  const double g = length(gravity);
  const double a = rig.slope_deg * std::numbers::pi / 180.0;
  return {-g * std::sin(a), 0.0, -g * std::cos(a)};
}

double track_slip(double chassis_speed, double track_speed) {
  if (!(std::fabs(track_speed) >= 1e-3)) return std::numeric_limits<double>::quiet_NaN();
  return 1.0 - chassis_speed / track_speed;
}

RigCsv::RigCsv(const std::filesystem::path& folder, std::string_view rows_before)
    : csv_(folder / "rig.csv", kRigCsvHeader) {
  if (!rows_before.empty()) {
    csv_.write_lines(rows_before);
    csv_.flush();
  }
}

void RigCsv::write(const RigRow& r) {
  line_.clear();
  io::append_number(line_, r.t);
  line_ += ',';
  line_ += rig_phase_name(r.phase);
  for (const double v : {r.chassis_x, r.chassis_z, r.chassis_vx, r.pitch_deg, r.sprocket_speed[0], r.sprocket_speed[1],
                         r.sprocket_torque[0], r.sprocket_torque[1], r.track_speed,
                         track_slip(r.chassis_vx, r.track_speed), r.drawbar_pull, r.weight, r.ground_fx, r.ground_fz}) {
    line_ += ',';
    io::append_number(line_, v);
  }
  csv_.write_row(line_);
  csv_.flush();
}

}  // namespace trackcosim::cosim
