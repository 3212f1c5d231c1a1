#pragma once
// What the vehicle tells the terrain about its shoes, in the coupler's terms (cosim/protocol.h):
// the shoes of both tracks in one order (left, then right: the order of every message), their
// states, the hello, and how the terrain's forces go back onto the shoes.

#include <string>
#include <vector>

#include "cosim/protocol.h"
#include "vehicle_node/mbd/multibody_system.h"
#include "vehicle_node/track/tracked_vehicle.h"

namespace trackcosim::vehicle {

std::vector<BodyId> all_shoes(const TrackedVehicle& vehicle);
std::vector<cosim::ShoeState> shoe_states(const MultibodySystem& system, const std::vector<BodyId>& shoes);

/// The hello of this vehicle in its current state (`initial` = the shoes' states now), offering
/// the checkpoint capability.
cosim::VehicleHello make_hello(const TrackedVehicle& vehicle, const MultibodySystem& system, double coupling_step,
                               double end_time, const std::string& scheme);

/// Holds each shoe's terrain force and torque on it until the next call.
void apply_shoe_forces(MultibodySystem& system, const std::vector<BodyId>& shoes,
                       const std::vector<cosim::ShoeForce>& forces);

/// The force part of each shoe's terrain load, as the recorder writes it into shoes.csv.
/// Each shoe's implicit load for the coming interval: the terrain's contact stiffness and damping
/// towards its proxy, which moves from `sent` (the states of t_k) with their velocities held
/// (docs/protocol.md, "Implicit shoe loads").
void apply_shoe_stiffness(MultibodySystem& system, const std::vector<BodyId>& shoes,
                          const std::vector<cosim::ShoeStiffness>& stiffness, const std::vector<cosim::ShoeState>& sent,
                          double t_k);

std::vector<Vec3> terrain_forces(const std::vector<cosim::ShoeForce>& forces);

/// Mean depth below `surface_height` of the lowest points of the shoes the terrain carries
/// (vertical force above 1 N), m; 0 when none is carried.
double mean_sinkage(const TrackedVehicle& vehicle, const MultibodySystem& system, const std::vector<BodyId>& shoes,
                    const std::vector<cosim::ShoeForce>& forces, double surface_height);

}  // namespace trackcosim::vehicle
