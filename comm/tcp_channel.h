#pragma once
// The TCP transport: the terrain leader listens, an external vehicle model connects. Frames as
// in frame.h. Reads have deadlines (poll), so a silent, slow or vanished peer ends in a
// ChannelError with the reason, never in a hang. The listener binds to loopback unless told
// otherwise: a co-simulation port is not something to expose by accident.

#include <memory>
#include <string>

#include "comm/channel.h"

namespace trackcosim::comm {

class TcpChannel final : public Channel {
 public:
  TcpChannel(int socket, std::string peer);
  ~TcpChannel() override;
  TcpChannel(const TcpChannel&) = delete;
  TcpChannel& operator=(const TcpChannel&) = delete;

  void send(const Frame& frame, double timeout_seconds) override;
  Frame receive(double timeout_seconds) override;
  std::string peer() const override { return peer_; }

 private:
  int socket_;
  std::string peer_;
};

class TcpListener {
 public:
  /// Binds host:port (port 0: any free port) and listens. Throws ChannelError naming both.
  TcpListener(const std::string& host, int port);
  ~TcpListener();
  TcpListener(const TcpListener&) = delete;
  TcpListener& operator=(const TcpListener&) = delete;

  int port() const { return port_; }
  /// Waits at most timeout_seconds for a client. Throws ChannelError on timeout.
  std::unique_ptr<TcpChannel> accept(double timeout_seconds);

 private:
  int socket_ = -1;
  int port_ = 0;
  std::string host_;
};

/// Connects to host:port, retrying until timeout_seconds (the terrain may still be starting).
std::unique_ptr<TcpChannel> tcp_connect(const std::string& host, int port, double timeout_seconds);

}  // namespace trackcosim::comm
