/* The vehicle side of the trackcosim co-simulation as a C API (opaque handle), for vehicle
 * models written in C or in anything that can call C. It wraps cosim::VehicleCoupler, over TCP
 * (tcs_connect_tcp) or over the transport named by a string (tcs_connect: "tcp", or "mpi" for a
 * model that runs in the same MPI job as terrain_node); the protocol is docs/protocol.md, units SI, world frame X forward, Y left,
 * Z up. Every function returns 0 on success, -1 on failure; tcs_last_error says why.
 *
 *   tcs_coupler* c = tcs_connect_tcp("127.0.0.1", 47000, 30.0);
 *   tcs_handshake(c, h, end_time, shoes, masses, sphere_counts, spheres, states, &terrain);
 *   for (k = 0; ...; ++k) {
 *     tcs_send_states(c, t_k, states);    13 doubles per shoe: x y z, qw qx qy qz, vx vy vz, wx wy wz
 *     ... advance the vehicle with the last forces ...
 *     tcs_receive_forces(c, forces);      6 doubles per shoe: fx fy fz, tx ty tz (about the shoe origin)
 *   }
 *   tcs_finish(c);
 *   tcs_free(c);
 * Walltime safety (optional; docs/protocol.md, "Checkpoints"): call tcs_offer_checkpoint before
 * tcs_handshake; after each tcs_receive_forces, when tcs_terrain_asks_to_stop(c) is 1 (a terrain
 * rank caught the batch system's stop signal), finish that interval, save the model's state of
 * t_k+1 and call tcs_checkpoint(c, t_k+1, reason) instead of the next tcs_send_states; the
 * terrain then writes its checkpoint and both end. A resumed run offers the step it resumes at.
 * Periodic checkpoints: tcs_checkpoint_continue(c, t_k, reason) before tcs_send_states(c, t_k, ...)
 * makes both sides save the state of t_k and go on.
 */
#ifndef TRACKCOSIM_COUPLER_C_H
#define TRACKCOSIM_COUPLER_C_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tcs_coupler tcs_coupler;

typedef struct tcs_terrain_info {
  double patch_min[3], patch_max[3]; /* m */
  double surface_height;             /* m */
  unsigned long long particles;
  double friction, density;
  double terrain_step;               /* s */
} tcs_terrain_info;

/* Connects, retrying until timeout_seconds. Never returns NULL: check tcs_last_error. */
tcs_coupler* tcs_connect_tcp(const char* host, int port, double timeout_seconds);
/* The same through the transport named `transport`: "tcp" (host, port) or "mpi" (one rank of an
 * MPMD job beside terrain_node; host and port unused), as cosim::VehicleCoupler::connect. */
tcs_coupler* tcs_connect(const char* transport, const char* host, int port, double timeout_seconds);
/* NULL when the last call succeeded. Valid until the next call on the same handle. */
const char* tcs_last_error(const tcs_coupler* c);

/* spheres: 4 doubles per sphere (offset x y z in the shoe frame, radius), all shoes' spheres
 * one after the other, sphere_counts[i] of them for shoe i; states: 13 doubles per shoe. */
int tcs_handshake(tcs_coupler* c, double coupling_step, double end_time, int shoes, const double* masses,
                  const int* sphere_counts, const double* spheres, const double* states, tcs_terrain_info* terrain);
int tcs_send_states(tcs_coupler* c, double time, const double* states);
int tcs_receive_forces(tcs_coupler* c, double* forces);
int tcs_finish(tcs_coupler* c);
/* Before tcs_handshake: offer the checkpoint capability; start_step > 0 resumes a coupling at
 * that step and time (the terrain must then run from its checkpoint of that step). */
int tcs_offer_checkpoint(tcs_coupler* c, unsigned long long start_step, double start_time);
/* 1 when forces_stop arrived (the terrain waits for tcs_checkpoint), 0 when not, -1 on a NULL or
 * unconnected handle. */
int tcs_terrain_asks_to_stop(const tcs_coupler* c);
/* Instead of tcs_send_states for the next step k: both sides save their state of `time` = t_k
 * and end (no tcs_finish afterwards). */
int tcs_checkpoint(tcs_coupler* c, double time, const char* reason);
/* The same, but the coupling goes on: call tcs_send_states(c, time, ...) next, for the same step. */
int tcs_checkpoint_continue(tcs_coupler* c, double time, const char* reason);
/* Tells the terrain to stop with a reason (best effort). */
void tcs_abort(tcs_coupler* c, const char* reason);
void tcs_free(tcs_coupler* c);

#ifdef __cplusplus
}
#endif

#endif
