#include "cosim/mpi_vehicle_channel.h"

#include <stdexcept>
#include <string>

#include "comm/mpi_channel.h"
#include "comm/mpi_session.h"
#include "runtime/mpi_wait_environment.h"

namespace trackcosim::cosim {

std::unique_ptr<comm::Channel> open_mpi_vehicle_channel() {
  // A program started without mpirun is a singleton job: MPI is initialised here, and the
  // channel then says that no terrain runs beside it. How its waits poll is chosen first: Open MPI
  // reads that when it starts.
  runtime::prepare_mpi_waits();
  comm::ensure_mpi();
  const comm::RoleLayout roles = comm::split_world_by_role(comm::Role::Vehicle);
  // The protocol has one vehicle leader and nothing for other vehicle ranks to do.
  if (roles.role_size != 1)
    throw std::invalid_argument("vehicle_node runs on one rank; the job gave it " + std::to_string(roles.role_size));
  return std::make_unique<comm::MpiChannel>(roles);
}

}  // namespace trackcosim::cosim
