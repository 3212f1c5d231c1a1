#include "cosim/coupler.h"

#include <chrono>
#include <cmath>
#include <stdexcept>

#include "comm/deadline.h"
#include "io/number_text.h"

namespace trackcosim::cosim {
namespace {

/// A refusal is the last word to a peer that may be gone: it does not wait long.
constexpr double kRefusalSeconds = 1;

/// The channel's own reason, with who failed and what was awaited: the message a user sees when
/// a job ends on a lost peer.
[[noreturn]] void peer_lost(const comm::ChannelError& e, const char* peer_program, const std::string& peer,
                            const std::string& during) {
  const std::string who = std::string(peer_program) + " (" + peer + ")";
  if (dynamic_cast<const comm::PeerTimeout*>(&e) != nullptr)
    throw comm::PeerTimeout(who + " stopped answering " + during + ": " + e.what());
  throw comm::ChannelError("the connection to " + who + " failed " + during + ": " + e.what());
}

/// A stop signal ended the wait (comm::StopEndsWaits): the message says what was awaited, and
/// from whom, but blames no one.
[[noreturn]] void stopped(const comm::WaitStopped& e, const char* peer_program, const std::string& peer,
                          const std::string& during) {
  throw comm::WaitStopped(e.signal(), during + " (" + peer_program + ", " + peer + ")");
}

/// One frame to the peer, or a ChannelError naming it and `during`.
void send_to(comm::Channel& channel, const comm::Frame& frame, double timeout, const char* peer_program,
             const std::string& during) {
  try {
    channel.send(frame, timeout);
  } catch (const comm::ChannelError& e) {
    peer_lost(e, peer_program, channel.peer(), during);
  } catch (const comm::WaitStopped& e) {
    stopped(e, peer_program, channel.peer(), during);
  }
}

/// The peer's next frame, or a ChannelError naming it and `during`.
comm::Frame receive_from(comm::Channel& channel, double timeout, const char* peer_program, const std::string& during) {
  try {
    return channel.receive(timeout);
  } catch (const comm::ChannelError& e) {
    peer_lost(e, peer_program, channel.peer(), during);
  } catch (const comm::WaitStopped& e) {
    stopped(e, peer_program, channel.peer(), during);
  }
}

}  // namespace

VehicleCoupler::VehicleCoupler(std::unique_ptr<comm::Channel> channel, double timeout_seconds)
    : channel_(std::move(channel)), timeout_(timeout_seconds) {}

const TerrainWelcome& VehicleCoupler::handshake(const VehicleHello& hello) {
  if (hello.initial.size() != hello.shoes.size())
    throw std::invalid_argument("handshake: " + std::to_string(hello.shoes.size()) + " shoes but " +
                                std::to_string(hello.initial.size()) + " initial states");
  VehicleHello asked = hello;
  // Working frames at a quarter of the timeout: three may be late before the vehicle gives up.
  if (asked.keepalive <= 0) asked.keepalive = timeout_ / 4;
  send(encode_hello(asked), "while the vehicle sent its hello");
  welcome_ = decode_welcome(receive_answer("while the vehicle waited for its welcome"), channel_->peer());
  shoes_ = hello.shoes.size();
  step_ = hello.start_step;
  can_checkpoint_ = hello.checkpoint;
  if (hello.stiffness && !welcome_.stiffness) {
    abort("this vehicle needs the shoes' contact stiffness (\"stiffness\"), the terrain does not send it");
    throw ProtocolError("the vehicle asked " + channel_->peer() +
                        " for the shoes' contact stiffness (implicit shoe loads), its welcome does not offer it");
  }
  with_stiffness_ = hello.stiffness;
  return welcome_;
}

void VehicleCoupler::send_states(double time, const std::vector<ShoeState>& states) {
  if (awaiting_forces_) throw std::logic_error("send_states twice without receive_forces");
  if (states.size() != shoes_)
    throw ProtocolError("shoe count mismatch: " + std::to_string(states.size()) + " states, the handshake announced " +
                        std::to_string(shoes_));
  send(encode_states(step_, time, states), "while the vehicle sent the states of coupling step " + std::to_string(step_));
  awaiting_forces_ = true;
}

std::vector<ShoeForce> VehicleCoupler::receive_forces() {
  if (!awaiting_forces_) throw std::logic_error("receive_forces before send_states");
  bool stop = false;
  std::vector<ShoeForce> f =
      decode_forces(receive_answer("while the vehicle waited for the forces of coupling step " + std::to_string(step_)),
                    step_, shoes_, channel_->peer(), can_checkpoint_ ? &stop : nullptr,
                    with_stiffness_ ? &stiffness_ : nullptr);
  terrain_stop_ = terrain_stop_ || stop;
  awaiting_forces_ = false;
  ++step_;
  return f;
}

void VehicleCoupler::finish() { send(finish_frame(), "while the vehicle sent its finish"); }

void VehicleCoupler::checkpoint(double time, const std::string& reason, bool keep_going) {
  if (awaiting_forces_) throw std::logic_error("checkpoint between send_states and receive_forces");
  if (!welcome_.checkpoint)
    throw ProtocolError("the terrain at " + channel_->peer() +
                        " cannot write a co-simulation checkpoint (its welcome has no \"checkpoint\": true)");
  send(encode_checkpoint({step_, time, reason, keep_going}), "while the vehicle sent its checkpoint frame");
}

void VehicleCoupler::abort(const std::string& reason) noexcept {
  try {
    channel_->send(encode_refusal(reason), kRefusalSeconds);
  } catch (...) {
  }
}

void VehicleCoupler::send(const comm::Frame& frame, const std::string& during) {
  send_to(*channel_, frame, timeout_, "the terrain", during);
}

comm::Frame VehicleCoupler::receive_answer(const std::string& during) {
  for (;;) {
    comm::Frame f = receive_from(*channel_, timeout_, "the terrain", during);
    if (f.kind != static_cast<std::uint32_t>(MessageKind::Working)) return f;
  }
}

TerrainCoupler::TerrainCoupler(std::unique_ptr<comm::Channel> channel, double timeout_seconds)
    : channel_(std::move(channel)), timeout_(timeout_seconds) {}

const VehicleHello& TerrainCoupler::accept(const TerrainExpectations& expect, const TerrainWelcome& welcome) {
  receive_hello(expect);
  send_welcome(welcome);
  return hello_;
}

const VehicleHello& TerrainCoupler::receive_hello(const TerrainExpectations& expect) {
  try {
    hello_ = decode_hello(receive("while the terrain waited for its hello"), channel_->peer());
    if (expect.coupling_step > 0 && std::fabs(hello_.coupling_step - expect.coupling_step) > 1e-12 * expect.coupling_step)
      throw ProtocolError("coupling step mismatch: the vehicle uses " + io::number_to_string(hello_.coupling_step) +
                          " s, the terrain " + io::number_to_string(expect.coupling_step) + " s");
    if (expect.shoes > 0 && hello_.shoes.size() != expect.shoes)
      throw ProtocolError("shoe count mismatch: the vehicle has " + std::to_string(hello_.shoes.size()) +
                          " shoes, the terrain expects " + std::to_string(expect.shoes));
    if (hello_.start_step != expect.start_step) {
      const std::string vehicle = "the vehicle resumes at coupling step " + std::to_string(hello_.start_step);
      if (expect.start_step == 0)
        throw ProtocolError(vehicle + ", but this terrain starts a new coupling at step 0 (resume it with "
                                      "terrain_node --cosim --restart and the terrain checkpoint of step " +
                            std::to_string(hello_.start_step) + ")");
      throw ProtocolError("start step mismatch: " +
                          (hello_.start_step == 0 ? std::string("the vehicle starts a new coupling at step 0")
                                                  : vehicle) +
                          ", the terrain checkpoint is at coupling step " + std::to_string(expect.start_step));
    }
    if (expect.terrain_step > 0) {
      const double ratio = hello_.coupling_step / expect.terrain_step;
      if (ratio < 1 - 1e-9 || std::fabs(ratio - std::round(ratio)) > 1e-9 * ratio)
        throw ProtocolError("the coupling step " + io::number_to_string(hello_.coupling_step) +
                            " s is not a whole number of terrain steps of " + io::number_to_string(expect.terrain_step) +
                            " s");
    }
  } catch (const ProtocolError& e) {
    abort(e.what());
    throw;
  }
  step_ = hello_.start_step;
  return hello_;
}

void TerrainCoupler::send_welcome(const TerrainWelcome& welcome) {
  send(encode_welcome(welcome), "while the terrain sent its welcome");
}

void TerrainCoupler::keep_alive() {
  if (hello_.keepalive <= 0 || std::chrono::steady_clock::now() - last_sent_ < std::chrono::duration<double>(hello_.keepalive))
    return;
  send(working_frame(), "while the terrain told it that it was still working");
}

std::optional<std::vector<ShoeState>> TerrainCoupler::receive_states(double& time) {
  // A request is answered once: the states that follow a periodic checkpoint are plain states.
  checkpoint_.reset();
  const comm::Frame f = receive("while the terrain waited for the states of coupling step " + std::to_string(step_));
  if (f.kind == static_cast<std::uint32_t>(MessageKind::Finish)) return std::nullopt;
  try {
    if (f.kind == static_cast<std::uint32_t>(MessageKind::Checkpoint)) {
      checkpoint_ = decode_checkpoint(f, step_, channel_->peer());
      return std::nullopt;
    }
    std::vector<ShoeState> s = decode_states(f, step_, hello_.shoes.size(), time, channel_->peer());
    ++step_;
    return s;
  } catch (const ProtocolError& e) {
    abort(e.what());
    throw;
  }
}

void TerrainCoupler::send_forces(const std::vector<ShoeForce>& forces, bool stop,
                                 const std::vector<ShoeStiffness>* stiffness) {
  if (stop && !hello_.checkpoint)
    throw std::logic_error("forces_stop for a vehicle whose hello has no \"checkpoint\": true");
  if ((stiffness != nullptr) != hello_.stiffness)
    throw std::logic_error(hello_.stiffness ? "the vehicle's hello asked for the shoes' stiffness; none given"
                                            : "shoe stiffness for a vehicle whose hello did not ask for it");
  send(encode_forces(step_ - 1, forces, stop, stiffness),
       "while the terrain sent the forces of coupling step " + std::to_string(step_ - 1));
}

void TerrainCoupler::abort(const std::string& reason) noexcept {
  try {
    channel_->send(encode_refusal(reason), kRefusalSeconds);
  } catch (...) {
  }
}

void TerrainCoupler::send(const comm::Frame& frame, const std::string& during) {
  send_to(*channel_, frame, timeout_, "the vehicle", during);
  last_sent_ = std::chrono::steady_clock::now();
}

comm::Frame TerrainCoupler::receive(const std::string& during) {
  return receive_from(*channel_, timeout_, "the vehicle", during);
}

}  // namespace trackcosim::cosim
