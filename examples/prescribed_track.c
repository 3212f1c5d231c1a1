/* An external vehicle model in C: a straight row of 8 track shoes, each a pad of 3 spheres,
 * pressed 10 mm into the terrain and dragged forward at 0.2 m/s (prescribed motion: the model
 * ignores the forces except to report them). It speaks to terrain_node --cosim over TCP through
 * the C API of cosim/coupler_c.h.
 *
 *   prescribed_track HOST PORT [STEPS]
 *
 * Prints one line per 25 coupling steps and ends with
 *   example c steps=<n> shoes=<s> mean_fz=<N> mean_fx=<N>
 * (means over the second half of the run). Exit status 0, or 1 with the coupler's message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosim/coupler_c.h"

enum { SHOES = 8, SPHERES = 3 };

static int fail(tcs_coupler* c) {
  fprintf(stderr, "prescribed_track: error: %s\n", tcs_last_error(c));
  tcs_free(c);
  return 1;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: prescribed_track HOST PORT [STEPS]\n");
    return 2;
  }
  const int steps = argc > 3 ? atoi(argv[3]) : 150;
  const double h = 2e-3, speed = 0.2, pitch = 0.08, radius = 0.02;
  tcs_coupler* c = tcs_connect_tcp(argv[1], atoi(argv[2]), 20.0);
  if (tcs_last_error(c) != NULL) return fail(c);

  double masses[SHOES], spheres[SHOES * SPHERES * 4], states[SHOES * 13];
  int counts[SHOES];
  for (int i = 0; i < SHOES; ++i) {
    masses[i] = 1.0;
    counts[i] = SPHERES;
    for (int k = 0; k < SPHERES; ++k) {  /* a pad across the shoe: y = -0.04, 0, 0.04 */
      double* s = spheres + 4 * (SPHERES * i + k);
      s[0] = 0.0, s[1] = 0.04 * (k - 1), s[2] = 0.0, s[3] = radius;
    }
  }
  tcs_terrain_info terrain;
  /* First pose: above the bed, to be placed once the surface height is known. */
  memset(states, 0, sizeof states);
  for (int i = 0; i < SHOES; ++i) states[13 * i + 3] = 1.0;
  if (tcs_handshake(c, h, steps * h, SHOES, masses, counts, spheres, states, &terrain) != 0) return fail(c);
  const double z = terrain.surface_height + radius - 0.01; /* sphere bottoms 10 mm below the surface */
  const double y = 0.5 * (terrain.patch_min[1] + terrain.patch_max[1]);
  printf("terrain: %llu particles, surface at %.4f m\n", terrain.particles, terrain.surface_height);

  double forces[SHOES * 6], sum_fz = 0, sum_fx = 0;
  int counted = 0;
  for (int k = 0; k < steps; ++k) {
    const double t = k * h;
    for (int i = 0; i < SHOES; ++i) {
      double* s = states + 13 * i;
      s[0] = 0.2 + pitch * i + speed * t, s[1] = y, s[2] = z;
      s[3] = 1.0, s[4] = s[5] = s[6] = 0.0;
      s[7] = speed, s[8] = s[9] = 0.0;
      s[10] = s[11] = s[12] = 0.0;
    }
    if (tcs_send_states(c, t, states) != 0 || tcs_receive_forces(c, forces) != 0) return fail(c);
    double fz = 0, fx = 0;
    for (int i = 0; i < SHOES; ++i) fz += forces[6 * i + 2], fx += forces[6 * i];
    if (k >= steps / 2) sum_fz += fz, sum_fx += fx, ++counted;
    if (k % 25 == 0) printf("t %.3f s  total force on the shoes: fx %.2f N, fz %.2f N\n", t, fx, fz);
  }
  if (tcs_finish(c) != 0) return fail(c);
  tcs_free(c);
  printf("example c steps=%d shoes=%d mean_fz=%.3f mean_fx=%.3f\n", steps, SHOES, sum_fz / counted, sum_fx / counted);
  return 0;
}
