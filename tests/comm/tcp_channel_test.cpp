// The TCP transport (comm/tcp_channel.h) on loopback: frames cross intact; garbage, a header
// announcing too much, a truncated message, silence and a closed peer each end in a
// ChannelError with the reason, and the listener keeps serving the next client.

#include "comm/tcp_channel.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <functional>
#include <thread>

namespace trackcosim::comm {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ChannelError& e) {
    return e.what();
  }
  return "";
}

TEST(TcpChannel, FramesCrossBothWaysIntact) {
  TcpListener listener("127.0.0.1", 0);
  std::thread client([port = listener.port()] {
    auto c = tcp_connect("127.0.0.1", port, 5);
    Frame f = c->receive(5);
    f.kind += 1;
    f.payload.push_back(42);
    c->send(f, 10);
  });
  auto server = listener.accept(5);
  Frame out{7, std::vector<unsigned char>(100000)};
  for (std::size_t i = 0; i < out.payload.size(); ++i) out.payload[i] = static_cast<unsigned char>(i * 31);
  server->send(out, 10);
  const Frame back = server->receive(5);
  client.join();
  EXPECT_EQ(back.kind, 8u);
  ASSERT_EQ(back.payload.size(), 100001u);
  EXPECT_TRUE(std::equal(out.payload.begin(), out.payload.end(), back.payload.begin()));
  EXPECT_EQ(back.payload.back(), 42);
}

/// Connects with a plain socket, writes `bytes`, then closes (or stays silent when keep_open).
std::thread raw_client(int port, std::vector<unsigned char> bytes, double keep_open_seconds = 0) {
  return std::thread([=] {
    const int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) {
      if (!bytes.empty()) (void)::send(s, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (keep_open_seconds > 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(static_cast<int>(keep_open_seconds * 1000)));
    }
    ::close(s);
  });
}

TEST(TcpChannel, BadClientsAreRefusedWithAReasonAndTheListenerGoesOn) {
  TcpListener listener("127.0.0.1", 0);
  const int port = listener.port();
  struct Case {
    std::vector<unsigned char> bytes;
    double keep_open;
    std::string reason;
  };
  std::vector<unsigned char> truncated = encode_frame_header(3, 100);
  truncated.resize(truncated.size() + 10, 0);
  std::vector<unsigned char> oversize = encode_frame_header(3, 0);
  const std::uint64_t huge = kMaxFramePayload + 1;
  std::memcpy(oversize.data() + 8, &huge, 8);
  const std::vector<Case> cases{
      {{'G', 'E', 'T', ' ', '/', ' ', 'H', 'T', 'T', 'P', '/', '1', '.', '1', '\r', '\n'}, 0, "bad magic"},
      {oversize, 0, "over the limit"},
      {truncated, 0, "truncated message"},
      {{'T', 'C', 'S'}, 0, "truncated message"},
      {{}, 0, "closed the connection"},
      {{}, 1.0, "no message from"},
  };
  for (const Case& c : cases) {
    std::thread client = raw_client(port, c.bytes, c.keep_open);
    auto server = listener.accept(5);
    const std::string e = error_of([&] { server->receive(0.3); });
    client.join();
    EXPECT_NE(e.find(c.reason), std::string::npos) << "expected \"" << c.reason << "\" in: " << e;
    if (c.reason == "truncated message") {  // a peer cut off mid-frame is named as lost
      EXPECT_NE(e.find("closed the connection"), std::string::npos) << e;
    }
    EXPECT_NE(e.find("127.0.0.1"), std::string::npos) << e;
  }
  EXPECT_NE(error_of([&] { listener.accept(0.2); }).find("no vehicle connected"), std::string::npos);
}

TEST(TcpChannel, APeerThatStopsReadingEndsTheSendAtItsDeadline) {
  TcpListener listener("127.0.0.1", 0);
  std::thread client = raw_client(listener.port(), {}, 2.0);  // connects, then never reads
  auto server = listener.accept(5);
  const Frame big{3, std::vector<unsigned char>(1 << 20)};
  const auto start = std::chrono::steady_clock::now();
  // The socket buffers take a few MiB; then the send waits for room that never comes.
  const std::string e = error_of([&] {
    for (int i = 0; i < 64; ++i) server->send(big, 0.3);
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  client.join();
  EXPECT_NE(e.find("read nothing for 0.3 s"), std::string::npos) << e;
  EXPECT_NE(e.find("127.0.0.1"), std::string::npos) << e;
  EXPECT_LT(seconds, 1.5);
}

/// Peak resident memory of this process, bytes.
long peak_resident_bytes() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss * 1024L;
}

TEST(TcpChannel, AHeaderClaimingTheLimitHoldsOnlyWhatArrives) {
  // A header announcing the largest payload allowed (256 MiB), then 10 bytes and silence: the
  // receiver gives up at its deadline having held about what came, not 256 MiB.
  TcpListener listener("127.0.0.1", 0);
  std::vector<unsigned char> bytes = encode_frame_header(3, kMaxFramePayload);
  bytes.resize(bytes.size() + 10, 0);
  std::thread client = raw_client(listener.port(), bytes, 1.0);
  auto server = listener.accept(5);
  const long before = peak_resident_bytes();
  const std::string e = error_of([&] { server->receive(0.3); });
  client.join();
  EXPECT_NE(e.find("no message from"), std::string::npos) << e;
  EXPECT_LT(peak_resident_bytes() - before, 16L << 20);
}

TEST(TcpChannel, ConnectingToNobodyTimesOutNamingTheAddress) {
  int free_port = 0;
  {
    TcpListener probe("127.0.0.1", 0);
    free_port = probe.port();
  }
  const std::string e = error_of([&] { tcp_connect("127.0.0.1", free_port, 0.3); });
  EXPECT_NE(e.find("cannot connect to 127.0.0.1:" + std::to_string(free_port)), std::string::npos) << e;
}

}  // namespace
}  // namespace trackcosim::comm
