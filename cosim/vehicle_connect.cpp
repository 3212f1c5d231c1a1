// VehicleCoupler::connect: the one place where a transport name becomes a channel, so that a
// vehicle program (vehicle_node, or an external model) reaches the terrain through cosim/ alone
// and never includes MPI or socket headers itself.

#include <memory>
#include <stdexcept>
#include <string>

#include "comm/tcp_channel.h"
#include "cosim/coupler.h"
#include "cosim/mpi_vehicle_channel.h"

namespace trackcosim::cosim {
namespace {

std::unique_ptr<comm::Channel> open_channel(const TerrainAddress& a) {
  if (a.transport == "tcp") return comm::tcp_connect(a.host, a.port, a.timeout_seconds);
  if (a.transport != "mpi") throw std::invalid_argument("--terrain must be mpi or tcp, got " + a.transport);
  return open_mpi_vehicle_channel();
}

}  // namespace

VehicleCoupler VehicleCoupler::connect(const TerrainAddress& terrain) {
  return VehicleCoupler(open_channel(terrain), terrain.timeout_seconds);
}

VehicleCoupler VehicleCoupler::connect_tcp(const std::string& host, int port, double timeout_seconds) {
  return connect(TerrainAddress{"tcp", host, port, timeout_seconds});
}

}  // namespace trackcosim::cosim
