#pragma once
// The vehicle's end of an MPI channel, for VehicleCoupler::connect's "mpi" transport. Two
// definitions: mpi_vehicle_channel.cpp (trackcosim::cosim, in this tree) and
// mpi_vehicle_channel_absent.cpp (the installed TCP-only coupler library, which must link
// without MPI: it explains the refusal instead).

#include <memory>

#include "comm/channel.h"

namespace trackcosim::cosim {

/// The vehicle's channel to the terrain leader of this MPI job; initialises MPI in a program
/// started without mpirun. Throws std::invalid_argument when the job gives the vehicle more than
/// one rank, or when this library was built without MPI.
std::unique_ptr<comm::Channel> open_mpi_vehicle_channel();

}  // namespace trackcosim::cosim
