#include "comm/frame.h"

#include <cstring>

namespace trackcosim::comm {
namespace {

void put_u32(unsigned char* out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<unsigned char>(v >> (8 * i));
}
void put_u64(unsigned char* out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out[i] = static_cast<unsigned char>(v >> (8 * i));
}
std::uint32_t get_u32(const unsigned char* in) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | in[i];
  return v;
}
std::uint64_t get_u64(const unsigned char* in) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | in[i];
  return v;
}

}  // namespace

std::vector<unsigned char> encode_frame_header(std::uint32_t kind, std::uint64_t length) {
  if (length > kMaxFramePayload)
    throw ChannelError("a message of " + std::to_string(length) + " bytes is over the limit of " +
                       std::to_string(kMaxFramePayload));
  std::vector<unsigned char> h(kFrameHeaderBytes);
  std::memcpy(h.data(), kFrameMagic, 4);
  put_u32(h.data() + 4, kind);
  put_u64(h.data() + 8, length);
  return h;
}

std::pair<std::uint32_t, std::uint64_t> decode_frame_header(const unsigned char* h) {
  if (std::memcmp(h, kFrameMagic, 4) != 0) throw ChannelError("not a trackcosim message (bad magic)");
  const std::uint64_t length = get_u64(h + 8);
  if (length > kMaxFramePayload)
    throw ChannelError("message announces " + std::to_string(length) + " bytes, over the limit of " +
                       std::to_string(kMaxFramePayload));
  return {get_u32(h + 4), length};
}

}  // namespace trackcosim::comm
