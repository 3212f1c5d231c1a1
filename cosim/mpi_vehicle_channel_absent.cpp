// The installed coupler library (libtrackcosim_coupler) links without MPI, so that a vehicle model
// in plain C or C++ needs neither mpicc nor libmpi: its "mpi" transport says so.

#include <stdexcept>

#include "cosim/mpi_vehicle_channel.h"

namespace trackcosim::cosim {

std::unique_ptr<comm::Channel> open_mpi_vehicle_channel() {
  throw std::invalid_argument(
      "the transport \"mpi\" is not in this coupler library (libtrackcosim_coupler speaks TCP only: "
      "start terrain_node --cosim on its own and connect with \"tcp\"; docs/coupling.md)");
}

}  // namespace trackcosim::cosim
