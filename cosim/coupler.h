#pragma once
// The co-simulation coupler: the thin API through which a vehicle model talks to the terrain
// (vehicle_node uses it, and so do external models, in C++ or through coupler_c.h), and its
// terrain-side counterpart. Protocol and units: protocol.h, docs/protocol.md.
//
// Vehicle side, in this order:
//   auto c = VehicleCoupler::connect(addr); // transport by name: "mpi" or "tcp" (TerrainAddress)
//   c.handshake(hello);                     // -> the terrain's welcome, or ProtocolError
//   for each coupling step k = 0, 1, ...:
//     c.send_states(t_k, states);           // 13 reals per shoe at t_k
//     ... advance the vehicle over [t_k, t_k+1] with the forces of the previous interval ...
//     forces = c.receive_forces();          // mean force/torque over [t_k, t_k+1]
//   c.finish();
// Walltime safety (docs/protocol.md, "Checkpoints"): a hello with `checkpoint = true` lets the
// terrain answer forces_stop instead of forces (terrain_asks_to_stop() then turns true); at the
// top of a later step, instead of send_states, the vehicle saves its own state and calls
// checkpoint(t_k, reason), after which both sides end. A hello with start_step > 0 resumes.
// Periodic checkpoints: checkpoint(t_k, reason, /*keep_going=*/true) instead makes both sides
// save the state of t_k and go on; send_states(t_k, ...) follows as usual.
// Both sides advance concurrently between send_states and receive_forces (explicit
// force-displacement scheme). Every wait, to send or to receive, has a timeout: a peer that stops
// answering ends in a comm::ChannelError naming it and what was awaited, a peer that disagrees
// in a ProtocolError naming both values. The vehicle's hello asks for working frames at a
// quarter of its timeout, so the timeout bounds the terrain's silence, not its work.

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "comm/channel.h"
#include "cosim/protocol.h"

namespace trackcosim::cosim {

/// What every coupler call throws when the peer stopped answering within the timeout (or closed
/// the connection, or broke the framing): the message names the peer and what was awaited.
using PeerLost = comm::ChannelError;

/// Where a vehicle finds its terrain. The transport is named, so a program can take it from its
/// command line and never see MPI or sockets.
struct TerrainAddress {
  /// "mpi": one MPI job with terrain_node (mpirun -np 1 VEHICLE : -np N terrain_node --cosim);
  /// the vehicle runs on one rank. "tcp": the terrain leader listening at host:port.
  std::string transport = "mpi";
  std::string host = "127.0.0.1";  ///< tcp only
  int port = 47000;                ///< tcp only
  double timeout_seconds = 20;     ///< the longest silence: to connect over TCP, then on every send and receive
};

class VehicleCoupler {
 public:
  explicit VehicleCoupler(std::unique_ptr<comm::Channel> channel, double timeout_seconds = 20);
  /// Throws std::invalid_argument for an unknown transport or an MPI job that gives the vehicle
  /// more than one rank; comm::ChannelError when the terrain cannot be reached.
  static VehicleCoupler connect(const TerrainAddress& terrain);
  /// connect({"tcp", host, port, timeout_seconds}).
  static VehicleCoupler connect_tcp(const std::string& host, int port, double timeout_seconds = 20);

  const TerrainWelcome& handshake(const VehicleHello& hello);
  void send_states(double time, const std::vector<ShoeState>& states);
  std::vector<ShoeForce> receive_forces();
  /// Each shoe's contact stiffness and damping that came with the last receive_forces (a hello
  /// with "stiffness"; empty otherwise).
  const std::vector<ShoeStiffness>& stiffness() const { return stiffness_; }
  void finish();
  /// Before send_states for step(): both sides save the state of `time` = t_k and end, or, with
  /// `keep_going`, go on (send_states for the same step follows). Throws ProtocolError when the
  /// terrain's welcome did not offer "checkpoint".
  void checkpoint(double time, const std::string& reason, bool keep_going = false);
  /// Tells the terrain to stop with `reason` (best effort, never throws).
  void abort(const std::string& reason) noexcept;

  std::uint64_t step() const { return step_; }
  std::size_t shoes() const { return shoes_; }
  /// A forces_stop arrived: a terrain rank caught a stop signal and waits for a checkpoint frame.
  bool terrain_asks_to_stop() const { return terrain_stop_; }

 private:
  std::unique_ptr<comm::Channel> channel_;
  double timeout_;
  TerrainWelcome welcome_;
  std::size_t shoes_ = 0;
  std::uint64_t step_ = 0;  ///< the step of the next send_states
  bool awaiting_forces_ = false;
  bool can_checkpoint_ = false;  ///< the hello offered "checkpoint": forces_stop is accepted
  bool terrain_stop_ = false;
  bool with_stiffness_ = false;  ///< the hello asked for "stiffness" and the welcome agreed
  std::vector<ShoeStiffness> stiffness_;

  /// Throws comm::ChannelError naming the terrain and `during` when the deadline passes.
  void send(const comm::Frame& frame, const std::string& during);
  /// The next frame that is not a working frame; each one restarts the timeout.
  comm::Frame receive_answer(const std::string& during);
};

/// What the terrain accepts from a vehicle; 0 means "any".
struct TerrainExpectations {
  double coupling_step = 0;
  std::size_t shoes = 0;
  double terrain_step = 0;  ///< the coupling step must be a whole number of these
  /// The hello's start_step must be this: 0 for a new coupling, k for a terrain resumed from the
  /// checkpoint of coupling step k.
  std::uint64_t start_step = 0;
};

class TerrainCoupler {
 public:
  explicit TerrainCoupler(std::unique_ptr<comm::Channel> channel, double timeout_seconds = 20);

  /// Waits for the hello and answers it: with `welcome`, or with a refusal (and a ProtocolError
  /// here) when the hello does not meet `expect`. receive_hello then send_welcome.
  const VehicleHello& accept(const TerrainExpectations& expect, const TerrainWelcome& welcome);
  /// The hello, checked against `expect` (a refusal and a ProtocolError when it fails). The
  /// terrain then builds and settles its bed, calling keep_alive() as it goes.
  const VehicleHello& receive_hello(const TerrainExpectations& expect);
  void send_welcome(const TerrainWelcome& welcome);
  /// A working frame, when the hello asked for them ("keepalive") and nothing was sent for that
  /// long. Call it between units of work (terrain steps) whenever the vehicle waits.
  void keep_alive();
  /// The next step's states and their time; nullopt when the vehicle finished or asked for a
  /// checkpoint (then checkpoint_request() holds it until the next call; after one whose
  /// keep_going is set, call again for the same step's states).
  std::optional<std::vector<ShoeState>> receive_states(double& time);
  /// `stop`: send forces_stop (kind 8), asking the vehicle for a checkpoint frame; only allowed
  /// when the hello offered "checkpoint" (std::logic_error otherwise: kind 8 is never sent to a
  /// vehicle that would not understand it).
  /// `stiffness` (one per shoe) must be given exactly when the hello asked for "stiffness".
  void send_forces(const std::vector<ShoeForce>& forces, bool stop = false,
                   const std::vector<ShoeStiffness>* stiffness = nullptr);
  void abort(const std::string& reason) noexcept;

  std::uint64_t step() const { return step_; }
  const std::optional<CheckpointRequest>& checkpoint_request() const { return checkpoint_; }

 private:
  std::unique_ptr<comm::Channel> channel_;
  double timeout_;
  VehicleHello hello_;
  std::uint64_t step_ = 0;  ///< the step of the next receive_states
  std::optional<CheckpointRequest> checkpoint_;
  std::chrono::steady_clock::time_point last_sent_ = std::chrono::steady_clock::now();

  void send(const comm::Frame& frame, const std::string& during);
  comm::Frame receive(const std::string& during);
};

}  // namespace trackcosim::cosim
