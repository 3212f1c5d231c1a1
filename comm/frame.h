#pragma once
// The unit both vehicle<->terrain transports move (docs/protocol.md): a 16-byte header, then the
// payload.
//
//   bytes 0-3   magic "TCSM"
//   bytes 4-7   uint32 message kind (its meaning is the protocol's, cosim/protocol.h)
//   bytes 8-15  uint64 payload length in bytes (at most kMaxFramePayload)
//
// All integers little-endian. A header that fails these checks is refused with a reason; the
// transport never trusts a length it has not checked.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace trackcosim::comm {

inline constexpr char kFrameMagic[4] = {'T', 'C', 'S', 'M'};
inline constexpr std::size_t kFrameHeaderBytes = 16;
inline constexpr std::uint64_t kMaxFramePayload = 256ull << 20;  ///< 256 MiB: about 3 million shoes

struct Frame {
  std::uint32_t kind = 0;
  std::vector<unsigned char> payload;
};

/// A transport failure or a peer that broke the framing: the message says which and why.
class ChannelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The peer said nothing, or took nothing, until the deadline: it stopped answering.
class PeerTimeout : public ChannelError {
 public:
  using ChannelError::ChannelError;
};

std::vector<unsigned char> encode_frame_header(std::uint32_t kind, std::uint64_t length);

/// Checks a received header: throws ChannelError naming what is wrong (bad magic, length over
/// the limit); returns (kind, length).
std::pair<std::uint32_t, std::uint64_t> decode_frame_header(const unsigned char* header);

}  // namespace trackcosim::comm
