/* An external vehicle model under the drawbar-pull rig (cosim/drawbar_rig_c.h), in C: a straight
 * track segment of 8 shoes, each a pad of 3 spheres, pressed 10 mm into the terrain. It follows
 * the rig file's schedule as the track under a vehicle would: the segment's frame moves with the
 * chassis speed of the rig, the shoes run backwards through it at the track speed, so each shoe
 * moves over the ground at chassis speed - track speed (-slip x track speed in slip mode). What
 * the terrain pushes on the shoes along x is the drawbar pull this "vehicle" develops; what it
 * carries is its weight. Each output row goes to OUT/rig.csv, the file `tools/trackcosim
 * mobility` reads from vehicle_node's runs too.
 *
 *   rig_track HOST PORT RIG.json OUT [STEPS]     (terrain_node --cosim over TCP)
 *
 * Slip and towed modes only: a pull needs a model with dynamics, which this one is not.
 * Ends with  example rig steps=<n> rows=<r> measure_dbp=<N> measure_fz=<N>  (means over the
 * measure phase). Exit status 0, 1 with the coupler's or the rig's message, 2 bad usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosim/coupler_c.h"
#include "cosim/drawbar_rig_c.h"

enum { SHOES = 8, SPHERES = 3, ROW_EVERY = 5 };

static int fail_coupler(tcs_coupler* c) {
  fprintf(stderr, "rig_track: error: %s\n", tcs_last_error(c));
  tcs_free(c);
  return 1;
}

static int fail_rig(tcs_rig* rig) {
  fprintf(stderr, "rig_track: error: %s\n", tcs_rig_error(rig));
  tcs_rig_free(rig);
  return 1;
}

int main(int argc, char** argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: rig_track HOST PORT RIG.json OUT [STEPS]\n");
    return 2;
  }
  const int steps = argc > 5 ? atoi(argv[5]) : 200;
  const double h = 2e-3, pitch = 0.08, radius = 0.02;
  tcs_rig* rig = tcs_rig_open(argv[3], argv[4]);
  if (rig == NULL || tcs_rig_error(rig) != NULL) return fail_rig(rig);
  tcs_rig_targets target;
  if (tcs_rig_targets_at(rig, 0.0, &target) != 0) return fail_rig(rig);
  if (!target.chassis_speed_held) {
    fprintf(stderr, "rig_track: error: %s: pull mode needs a model with dynamics; use slip or towed\n", argv[3]);
    tcs_rig_free(rig);
    return 1;
  }
  tcs_coupler* c = tcs_connect_tcp(argv[1], atoi(argv[2]), 20.0);
  if (tcs_last_error(c) != NULL) return fail_coupler(c);

  double masses[SHOES], spheres[SHOES * SPHERES * 4], states[SHOES * 13];
  int counts[SHOES];
  for (int i = 0; i < SHOES; ++i) {
    masses[i] = 1.0;
    counts[i] = SPHERES;
    for (int k = 0; k < SPHERES; ++k) { /* a pad across the shoe: y = -0.04, 0, 0.04 */
      double* s = spheres + 4 * (SPHERES * i + k);
      s[0] = 0.0, s[1] = 0.04 * (k - 1), s[2] = 0.0, s[3] = radius;
    }
  }
  memset(states, 0, sizeof states);
  for (int i = 0; i < SHOES; ++i) states[13 * i + 3] = 1.0;
  tcs_terrain_info terrain;
  if (tcs_handshake(c, h, steps * h, SHOES, masses, counts, spheres, states, &terrain) != 0) return fail_coupler(c);
  const double z = terrain.surface_height + radius - 0.01; /* sphere bottoms 10 mm below the surface */
  const double y = 0.5 * (terrain.patch_min[1] + terrain.patch_max[1]);

  double forces[SHOES * 6], offset = 0.2, sum_dbp = 0, sum_fz = 0;
  int rows = 0, measured = 0;
  for (int k = 0; k < steps; ++k) {
    const double t = k * h;
    if (tcs_rig_targets_at(rig, t, &target) != 0) return fail_rig(rig);
    /* Towed: the tracks roll freely, so the shoes on the ground stand still over it. */
    const double track = target.tracks_driven ? target.track_speed : target.chassis_speed;
    const double shoe_speed = target.chassis_speed - track;
    for (int i = 0; i < SHOES; ++i) {
      double* s = states + 13 * i;
      s[0] = offset + pitch * i, s[1] = y, s[2] = z;
      s[3] = 1.0, s[4] = s[5] = s[6] = 0.0;
      s[7] = shoe_speed, s[8] = s[9] = 0.0;
      s[10] = s[11] = s[12] = 0.0;
    }
    if (tcs_send_states(c, t, states) != 0 || tcs_receive_forces(c, forces) != 0) return fail_coupler(c);
    offset += h * shoe_speed;
    if ((k + 1) % ROW_EVERY != 0) continue;
    tcs_rig_row row;
    memset(&row, 0, sizeof row);
    row.t = t + h;
    row.chassis_x = offset;
    row.chassis_z = z;
    row.chassis_vx = target.chassis_speed;
    row.track_speed = track;
    for (int i = 0; i < SHOES; ++i) row.ground_fx += forces[6 * i], row.ground_fz += forces[6 * i + 2];
    row.drawbar_pull = row.ground_fx; /* no body to hold: all the terrain pushes reaches the rig */
    row.weight = row.ground_fz;       /* the load the pads carry at their imposed depth */
    if (tcs_rig_record(rig, &row) != 0) return fail_rig(rig);
    ++rows;
    if (row.t >= target.measure_from) sum_dbp += row.drawbar_pull, sum_fz += row.ground_fz, ++measured;
  }
  if (tcs_finish(c) != 0) return fail_coupler(c);
  tcs_free(c);
  tcs_rig_free(rig);
  printf("example rig steps=%d rows=%d measure_dbp=%.3f measure_fz=%.3f\n", steps, rows,
         measured ? sum_dbp / measured : 0.0, measured ? sum_fz / measured : 0.0);
  return 0;
}
