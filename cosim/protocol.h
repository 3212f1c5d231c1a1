#pragma once
// The vehicle-terrain protocol, version 1 (docs/protocol.md is the byte-level reference that a
// client in any language can be written from). Messages are frames (comm/frame.h) of these
// kinds:
//
//   1 hello      vehicle -> terrain  JSON: version, units, coupling step, end time, shoes
//                                     (geometry, mass, initial state)
//   2 welcome    terrain -> vehicle  JSON: version, patch extents, surface height, particles,
//                                     material, the terrain's internal step
//   3 states     vehicle -> terrain  binary: step k, time t_k, shoe count, 13 doubles per shoe
//   4 forces     terrain -> vehicle  binary: step k, shoe count, 6 doubles per shoe, then 42
//                                     more per shoe (ShoeStiffness) when both sides agreed on
//                                     "stiffness" in the handshake
//   5 finish     either way          empty: the sender stops normally
//   6 refusal    either way          JSON {"error": "..."}: the sender stops, and says why
//   7 checkpoint vehicle -> terrain  JSON {"step": k, "time": t_k, "reason": "..."}: instead of
//                                     states(k), both sides write their checkpoint of t_k and end;
//                                     with "continue": true they go on, states(k) follows
//   8 forces_stop terrain -> vehicle the forces payload, instead of forces(k): a terrain rank
//                                     caught a stop signal; the vehicle completes interval k and
//                                     sends checkpoint(k + 1). Only to a hello with "checkpoint".
//   9 working    terrain -> vehicle  empty: the terrain is alive and busy (building, settling,
//                                     stepping); only to a hello with "keepalive": seconds, at
//                                     least that often while the vehicle waits. Restarts its wait.
//
// A hello whose version, units or coupling step the terrain does not accept is answered with a
// refusal naming both values; both sides then stop with that message.

#include <cstdint>
#include <string>
#include <vector>

#include "comm/frame.h"
#include "cosim/shoe_exchange.h"

namespace trackcosim::cosim {

inline constexpr std::uint32_t kProtocolVersion = 1;
inline constexpr const char* kProtocolName = "trackcosim-cosim";

enum class MessageKind : std::uint32_t {
  Hello = 1, Welcome = 2, States = 3, Forces = 4, Finish = 5, Refusal = 6, Checkpoint = 7, ForcesStop = 8,
  Working = 9
};
const char* message_kind_name(std::uint32_t kind);

struct VehicleHello {
  std::uint32_t version = kProtocolVersion;
  std::string units = "SI";
  double coupling_step = 0;  ///< s
  double end_time = 0;       ///< s
  /// When the vehicle applies a step's forces (docs/protocol.md, "Coupling schemes"):
  /// "concurrent" (over the next interval, both sides computing at once) or "sequential" (over
  /// the same interval, after waiting for them). Optional in the hello; absent = concurrent.
  std::string scheme = "concurrent";
  std::vector<ShoeGeometry> shoes;
  std::vector<ShoeState> initial;  ///< one per shoe, at t = 0 (a resumed run: at start_time)
  /// Walltime safety (docs/protocol.md, "Checkpoints"): this vehicle understands forces_stop and
  /// sends checkpoint frames. Optional key "checkpoint", written only when true.
  bool checkpoint = false;
  /// A resumed run continues at coupling step start_step, time start_time (both from its
  /// checkpoint); keys written only when start_step > 0.
  std::uint64_t start_step = 0;
  double start_time = 0;
  /// > 0: while the vehicle waits (for the welcome, for forces), the terrain sends a working
  /// frame whenever it has sent nothing for this many seconds, so that the vehicle's timeout
  /// bounds the terrain's silence, not its work. Optional key "keepalive" [s]; 0: none sent.
  double keepalive = 0;
  /// The vehicle applies the loads implicitly and asks for each shoe's contact stiffness and
  /// damping with its forces (docs/protocol.md, "Implicit shoe loads"). Optional key
  /// "stiffness", written only when true; only with the sequential scheme.
  bool stiffness = false;
};

struct TerrainWelcome {
  std::uint32_t version = kProtocolVersion;
  Vec3 patch_min{0, 0, 0}, patch_max{0, 0, 0};  ///< m
  double surface_height = 0;                     ///< m
  std::uint64_t particles = 0;
  double friction = 0, density = 0;  ///< the particles' material
  double terrain_step = 0;           ///< the terrain's internal step (s); sub-cycles the coupling step
  /// The terrain writes a co-simulation checkpoint on a checkpoint frame (key written only when true).
  bool checkpoint = false;
  /// The forces carry each shoe's ShoeStiffness: the answer to a hello with "stiffness" (key
  /// written only when true).
  bool stiffness = false;
};

/// Payload of a checkpoint frame: both sides save the state of t_k, the start of coupling step k.
struct CheckpointRequest {
  std::uint64_t step = 0;
  double time = 0;
  std::string reason;  ///< e.g. "SIGUSR1 on the vehicle"
  /// A periodic checkpoint: both sides save and the coupling goes on with states(k). Optional key
  /// "continue", written only when true, so that a stop's frame is what it always was.
  bool keep_going = false;
};

/// A peer spoke the protocol wrongly, or the two sides disagree: the message names both values.
class ProtocolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

comm::Frame encode_hello(const VehicleHello& hello);
/// Throws ProtocolError naming the field (from `peer`) that is missing or wrong.
VehicleHello decode_hello(const comm::Frame& frame, const std::string& peer);
comm::Frame encode_welcome(const TerrainWelcome& welcome);
TerrainWelcome decode_welcome(const comm::Frame& frame, const std::string& peer);

comm::Frame encode_states(std::uint64_t step, double time, const std::vector<ShoeState>& states);
/// Checks the step index and the shoe count against what the receiver expects.
std::vector<ShoeState> decode_states(const comm::Frame& frame, std::uint64_t expected_step, std::size_t shoes,
                                     double& time, const std::string& peer);
/// `stop`: a forces_stop frame (kind 8) instead of forces (kind 4), same payload. `stiffness`
/// (one per shoe) follows the forces when given.
comm::Frame encode_forces(std::uint64_t step, const std::vector<ShoeForce>& forces, bool stop = false,
                          const std::vector<ShoeStiffness>* stiffness = nullptr);
/// Accepts a forces_stop frame only when `stop` is given (the receiver advertised "checkpoint"),
/// and then tells which of the two it was. With `stiffness`, the payload must carry one
/// ShoeStiffness per shoe after the forces, and they are read into it.
std::vector<ShoeForce> decode_forces(const comm::Frame& frame, std::uint64_t expected_step, std::size_t shoes,
                                     const std::string& peer, bool* stop = nullptr,
                                     std::vector<ShoeStiffness>* stiffness = nullptr);

comm::Frame encode_checkpoint(const CheckpointRequest& request);
/// Checks the step index against what the receiver expects.
CheckpointRequest decode_checkpoint(const comm::Frame& frame, std::uint64_t expected_step, const std::string& peer);

comm::Frame encode_refusal(const std::string& reason);
comm::Frame finish_frame();
comm::Frame working_frame();

/// Throws ProtocolError when `frame` is a refusal (with the peer's reason) or not of `expected`
/// kind.
void expect_kind(const comm::Frame& frame, MessageKind expected, const std::string& peer);

}  // namespace trackcosim::cosim
