// The C form of the drawbar rig (drawbar_rig_c.h) over cosim/drawbar_rig.h: every exception
// becomes -1 and a message.

#include "cosim/drawbar_rig_c.h"

#include <exception>
#include <filesystem>
#include <new>
#include <optional>
#include <string>

#include "cosim/drawbar_rig.h"

struct tcs_rig {
  trackcosim::cosim::RigSettings settings;
  std::optional<trackcosim::cosim::RigCsv> csv;
  std::string error;
  bool failed = false;
};

namespace {

template <typename F>
int guarded(tcs_rig* rig, F&& f) {
  if (rig == nullptr) return -1;
  rig->failed = false;
  try {
    if (!rig->csv) throw std::runtime_error("the rig did not open: " + rig->error);
    f();
    return 0;
  } catch (const std::exception& e) {
    rig->error = e.what();
    rig->failed = true;
    return -1;
  }
}

}  // namespace

extern "C" {

tcs_rig* tcs_rig_open(const char* rig_file, const char* out_folder) {
  auto* rig = new (std::nothrow) tcs_rig;
  if (rig == nullptr) return nullptr;
  try {
    if (rig_file == nullptr || out_folder == nullptr) throw std::invalid_argument("tcs_rig_open: a NULL path");
    rig->settings = trackcosim::cosim::load_rig_settings(rig_file);
    std::filesystem::create_directories(out_folder);
    rig->csv.emplace(out_folder);
  } catch (const std::exception& e) {
    rig->error = e.what();
    rig->failed = true;
  }
  return rig;
}

const char* tcs_rig_error(const tcs_rig* rig) {
  if (rig == nullptr) return "a NULL rig handle";
  return rig->failed ? rig->error.c_str() : nullptr;
}

int tcs_rig_targets_at(tcs_rig* rig, double t, tcs_rig_targets* out) {
  return guarded(rig, [&] {
    if (out == nullptr) throw std::invalid_argument("tcs_rig_targets_at: a NULL output");
    const trackcosim::cosim::RigTargets target = trackcosim::cosim::rig_targets(rig->settings, t);
    const trackcosim::Vec3 g = trackcosim::cosim::slope_gravity(rig->settings, {0.0, 0.0, -9.81});
    *out = {static_cast<int>(target.phase), target.tracks_driven ? 1 : 0, target.track_speed,
            target.chassis_speed_held ? 1 : 0, target.chassis_speed, target.pull, {g.x, g.y, g.z},
            rig->settings.measure_from()};
  });
}

int tcs_rig_record(tcs_rig* rig, const tcs_rig_row* row) {
  return guarded(rig, [&] {
    if (row == nullptr) throw std::invalid_argument("tcs_rig_record: a NULL row");
    trackcosim::cosim::RigRow r;
    r.t = row->t;
    r.phase = trackcosim::cosim::rig_targets(rig->settings, row->t).phase;
    r.chassis_x = row->chassis_x;
    r.chassis_z = row->chassis_z;
    r.chassis_vx = row->chassis_vx;
    r.pitch_deg = row->pitch_deg;
    for (int s = 0; s < 2; ++s) {
      r.sprocket_speed[s] = row->sprocket_speed[s];
      r.sprocket_torque[s] = row->sprocket_torque[s];
    }
    r.track_speed = row->track_speed;
    r.drawbar_pull = row->drawbar_pull;
    r.weight = row->weight;
    r.ground_fx = row->ground_fx;
    r.ground_fz = row->ground_fz;
    rig->csv->write(r);
  });
}

void tcs_rig_free(tcs_rig* rig) { delete rig; }

}  // extern "C"
