#include "comm/tcp_channel.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "comm/deadline.h"

namespace trackcosim::comm {
namespace {

std::string errno_text() { return std::strerror(errno); }

sockaddr_in address_of(const std::string& host, int port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  if (inet_pton(AF_INET, host.c_str(), &a.sin_addr) == 1) return a;
  addrinfo hints{}, *found = nullptr;
  hints.ai_family = AF_INET;
  if (getaddrinfo(host.c_str(), nullptr, &hints, &found) != 0 || found == nullptr)
    throw ChannelError("cannot resolve host \"" + host + "\"");
  a.sin_addr = reinterpret_cast<sockaddr_in*>(found->ai_addr)->sin_addr;
  freeaddrinfo(found);
  return a;
}

/// Reads exactly n bytes before the deadline; returns how many arrived (n, or fewer when the
/// peer closed). Throws ChannelError on a timeout or a socket error.
std::size_t read_exactly(int s, unsigned char* out, std::size_t n, Deadline& deadline, const std::string& peer) {
  std::size_t got = 0;
  while (got < n) {
    pollfd p{s, POLLIN, 0};
    const int ready = poll(&p, 1, deadline.milliseconds_left());
    if (ready == 0 && !deadline.passed()) continue;
    if (ready == 0)
      give_up(deadline, "while waiting for a message from " + peer,
              "no message from " + peer + " for " + deadline.allowance() + " (" + std::to_string(got) + " of " +
                  std::to_string(n) + " bytes had arrived)");
    if (ready < 0) {
      if (errno == EINTR) continue;
      throw ChannelError("waiting for " + peer + ": " + errno_text());
    }
    const ssize_t r = ::recv(s, out + got, n - got, 0);
    if (r == 0) return got;
    if (r < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      if (errno == ECONNRESET) return got;  // the peer is gone, as with an orderly close
      throw ChannelError("reading from " + peer + ": " + errno_text());
    }
    got += static_cast<std::size_t>(r);
  }
  return got;
}

/// Writes n bytes before the deadline: a peer that stops reading fills the socket's buffer, and
/// then the wait for room is bounded like any other.
void write_all(int s, const unsigned char* data, std::size_t n, Deadline& deadline, const std::string& peer) {
  std::size_t sent = 0;
  while (sent < n) {
    const ssize_t w = ::send(s, data + sent, n - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (w >= 0) {
      sent += static_cast<std::size_t>(w);
      continue;
    }
    if (errno == EINTR) continue;
    if (errno == EPIPE || errno == ECONNRESET) throw ChannelError(peer + " closed the connection");
    if (errno != EAGAIN && errno != EWOULDBLOCK) throw ChannelError("sending to " + peer + ": " + errno_text());
    pollfd p{s, POLLOUT, 0};
    if (poll(&p, 1, deadline.milliseconds_left()) == 0 && deadline.passed())
      give_up(deadline, "while waiting for " + peer + " to read a message",
              peer + " read nothing for " + deadline.allowance() + " (" + std::to_string(sent) + " of " +
                  std::to_string(n) + " bytes were sent)");
  }
}

/// A payload of `length` bytes, stored as it arrives (in growing pieces), so that a header
/// claiming 256 MiB holds memory only for the bytes that really came.
std::vector<unsigned char> read_payload(int s, std::uint64_t length, Deadline& deadline, const std::string& peer) {
  constexpr std::size_t kFirstPiece = 1 << 20;
  std::vector<unsigned char> payload;
  while (payload.size() < length) {
    const std::size_t before = payload.size();
    const std::size_t piece = std::min<std::uint64_t>(length - before, std::max(kFirstPiece, before));
    payload.resize(before + piece);
    const std::size_t got = read_exactly(s, payload.data() + before, piece, deadline, peer);
    // Fewer bytes only when the peer closed: a peer killed between a header and its payload is
    // as lost as one killed between frames, and the message says so in the same words.
    if (got < piece)
      throw ChannelError("truncated message from " + peer + ": " + std::to_string(before + got) + " of " +
                         std::to_string(length) + " payload bytes, then " + peer + " closed the connection");
  }
  return payload;
}

}  // namespace

TcpChannel::TcpChannel(int socket, std::string peer) : socket_(socket), peer_(std::move(peer)) {
  const int one = 1;
  setsockopt(socket_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);  // small step messages, no batching
}

TcpChannel::~TcpChannel() { ::close(socket_); }

void TcpChannel::send(const Frame& frame, double timeout_seconds) {
  Deadline deadline = Deadline::after(timeout_seconds);
  const std::vector<unsigned char> header = encode_frame_header(frame.kind, frame.payload.size());
  write_all(socket_, header.data(), header.size(), deadline, peer_);
  write_all(socket_, frame.payload.data(), frame.payload.size(), deadline, peer_);
}

Frame TcpChannel::receive(double timeout_seconds) {
  Deadline deadline = Deadline::after(timeout_seconds);
  unsigned char header[kFrameHeaderBytes];
  const std::size_t got = read_exactly(socket_, header, sizeof header, deadline, peer_);
  if (got == 0) throw ChannelError(peer_ + " closed the connection");
  if (got < sizeof header)
    throw ChannelError("truncated message from " + peer_ + ": " + std::to_string(got) + " of " +
                       std::to_string(sizeof header) + " header bytes, then " + peer_ + " closed the connection");
  Frame f;
  std::uint64_t length = 0;
  try {
    std::tie(f.kind, length) = decode_frame_header(header);
  } catch (const ChannelError& e) {
    throw ChannelError(std::string(e.what()) + " from " + peer_);
  }
  f.payload = read_payload(socket_, length, deadline, peer_);
  return f;
}

TcpListener::TcpListener(const std::string& host, int port) : host_(host) {
  socket_ = ::socket(AF_INET, SOCK_STREAM, 0);
  if (socket_ < 0) throw ChannelError("cannot open a socket: " + errno_text());
  const int one = 1;
  setsockopt(socket_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a = address_of(host, port);
  if (::bind(socket_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(socket_, 4) != 0) {
    const std::string why = errno_text();
    ::close(socket_);
    throw ChannelError("cannot listen on " + host + ":" + std::to_string(port) + ": " + why);
  }
  socklen_t length = sizeof a;
  getsockname(socket_, reinterpret_cast<sockaddr*>(&a), &length);
  port_ = ntohs(a.sin_port);
}

TcpListener::~TcpListener() {
  if (socket_ >= 0) ::close(socket_);
}

std::unique_ptr<TcpChannel> TcpListener::accept(double timeout_seconds) {
  Deadline deadline = Deadline::after(timeout_seconds);
  for (;;) {
    pollfd p{socket_, POLLIN, 0};
    const int ready = poll(&p, 1, deadline.milliseconds_left());
    if (ready == 0 && !deadline.passed()) continue;
    if (ready == 0)
      give_up(deadline, "while waiting for a vehicle to connect to " + host_ + ":" + std::to_string(port_),
              "no vehicle connected to " + host_ + ":" + std::to_string(port_) + " within " + deadline.allowance());
    if (ready < 0 && errno == EINTR) continue;
    sockaddr_in from{};
    socklen_t length = sizeof from;
    const int s = ::accept(socket_, reinterpret_cast<sockaddr*>(&from), &length);
    if (s < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      throw ChannelError("accept on port " + std::to_string(port_) + ": " + errno_text());
    }
    char text[INET_ADDRSTRLEN] = {};
    inet_ntop(AF_INET, &from.sin_addr, text, sizeof text);
    return std::make_unique<TcpChannel>(s, "tcp " + std::string(text) + ":" + std::to_string(ntohs(from.sin_port)));
  }
}

std::unique_ptr<TcpChannel> tcp_connect(const std::string& host, int port, double timeout_seconds) {
  Deadline deadline = Deadline::after(timeout_seconds);
  const sockaddr_in a = address_of(host, port);
  std::string why;
  do {
    const int s = ::socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0) throw ChannelError("cannot open a socket: " + errno_text());
    if (::connect(s, reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0)
      return std::make_unique<TcpChannel>(s, "tcp " + host + ":" + std::to_string(port));
    why = errno_text();
    ::close(s);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  } while (!deadline.passed());
  throw ChannelError("cannot connect to " + host + ":" + std::to_string(port) + " within " + deadline.allowance() +
                     ": " + why);
}

}  // namespace trackcosim::comm
