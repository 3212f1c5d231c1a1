/* The drawbar-pull rig of the mobility tests (cosim/drawbar_rig.h, docs/mobility.md) as a C API,
 * for an external vehicle model that runs the soil-bin tests vehicle_node runs: it reads the same
 * rig file, follows the same schedule (rest, ramp, settle, measure) and writes the same rig.csv,
 * which `tools/trackcosim mobility` analyses. The model applies the set-points to itself: hold
 * its track speed, hold its chassis' forward speed (slip and towed modes, and at rest) or pull it
 * back (pull mode), tilt its gravity for the slope; then it reports what it measured.
 *
 *   tcs_rig* rig = tcs_rig_open("rig.json", "output/my_model");   creates output/my_model/rig.csv
 *   if (tcs_rig_error(rig)) ...
 *   for each step:  tcs_rig_targets_at(rig, t, &targets);  ... apply them, advance ...
 *   for each output time:  tcs_rig_record(rig, &row);
 *   tcs_rig_free(rig);
 * Functions return 0 on success, -1 on failure (tcs_rig_error says why). SI units, x forward. */
#ifndef TRACKCOSIM_DRAWBAR_RIG_C_H
#define TRACKCOSIM_DRAWBAR_RIG_C_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tcs_rig tcs_rig;

enum { TCS_RIG_REST = 0, TCS_RIG_RAMP = 1, TCS_RIG_SETTLE = 2, TCS_RIG_MEASURE = 3 };

typedef struct tcs_rig_targets {
  int phase;                /* TCS_RIG_REST .. TCS_RIG_MEASURE */
  int tracks_driven;        /* 0: leave the sprockets free (towed mode) */
  double track_speed;       /* m/s to hold the tracks at (tracks_driven) */
  int chassis_speed_held;   /* 1: hold the chassis' forward speed at chassis_speed */
  double chassis_speed;     /* m/s */
  double pull;              /* N, backwards on the chassis (pull mode) */
  double gravity[3];        /* the slope's gravity for |g| = 9.81: the ground rises along +x */
  double measure_from;      /* s: start of the measure phase */
} tcs_rig_targets;

/* What the model measured at one output time; the phase and the slip are added by the rig. */
typedef struct tcs_rig_row {
  double t;
  double chassis_x, chassis_z, chassis_vx, pitch_deg;   /* pitch + nose up */
  double sprocket_speed[2], sprocket_torque[2];         /* left, right: rad/s, N m (0 if none) */
  double track_speed;                                   /* m/s */
  double drawbar_pull;                                  /* N on the rig, + forward */
  double weight;                                        /* N: the load the tracks carry */
  double ground_fx, ground_fz;                          /* terrain force on all shoes, N */
} tcs_rig_row;

/* Never returns NULL (except out of memory): check tcs_rig_error. */
tcs_rig* tcs_rig_open(const char* rig_file, const char* out_folder);
/* NULL when the last call succeeded. */
const char* tcs_rig_error(const tcs_rig* rig);
int tcs_rig_targets_at(tcs_rig* rig, double t, tcs_rig_targets* out);
int tcs_rig_record(tcs_rig* rig, const tcs_rig_row* row);
void tcs_rig_free(tcs_rig* rig);

#ifdef __cplusplus
}
#endif

#endif
