// VehicleCoupler::connect: the one place where a transport name becomes a channel, so that a
// vehicle program (vehicle_node, or an external model) reaches the terrain through cosim/ alone
// and never includes MPI or socket headers itself.

#include <memory>
#include <stdexcept>
#include <string>

#include "comm/mpi_channel.h"
#include "comm/mpi_session.h"
#include "comm/tcp_channel.h"
#include "cosim/coupler.h"

namespace trackcosim::cosim {
namespace {

std::unique_ptr<comm::Channel> open_channel(const TerrainAddress& a) {
  if (a.transport == "tcp") return comm::tcp_connect(a.host, a.port, a.timeout_seconds);
  if (a.transport != "mpi") throw std::invalid_argument("--terrain must be mpi or tcp, got " + a.transport);
  // A program started without mpirun is a singleton job: MPI is initialised here, and the
  // channel then says that no terrain runs beside it.
  comm::ensure_mpi();
  const comm::RoleLayout roles = comm::split_world_by_role(comm::Role::Vehicle);
  // The protocol has one vehicle leader and nothing for other vehicle ranks to do.
  if (roles.role_size != 1)
    throw std::invalid_argument("vehicle_node runs on one rank; the job gave it " + std::to_string(roles.role_size));
  return std::make_unique<comm::MpiChannel>(roles);
}

}  // namespace

VehicleCoupler VehicleCoupler::connect(const TerrainAddress& terrain) {
  return VehicleCoupler(open_channel(terrain), terrain.timeout_seconds);
}

VehicleCoupler VehicleCoupler::connect_tcp(const std::string& host, int port, double timeout_seconds) {
  return connect(TerrainAddress{"tcp", host, port, timeout_seconds});
}

}  // namespace trackcosim::cosim
