// A stop signal and the waits on a peer (comm/deadline.h, StopEndsWaits): inside a scope, a
// signal caught ends a wait that would otherwise last its whole deadline, with WaitStopped naming
// the signal and what was awaited; outside one, the signal is kept for the run's step boundary
// and the wait runs to its deadline as before. The signal is raised in this process before the
// wait, so nothing here depends on when it arrives.

#include <gtest/gtest.h>

#include <csignal>
#include <memory>
#include <string>
#include <thread>

#include "comm/deadline.h"
#include "comm/stop_signal.h"
#include "comm/tcp_channel.h"

namespace trackcosim::comm {
namespace {

/// Longer than any test may take: a wait that ends did so because of the signal.
constexpr double kLongSeconds = 600;

TEST(StopEndsWaits, ASignalEndsTheWaitForAVehicleToConnectNamingTheSignal) {
  const StopSignal stop;
  TcpListener listener("127.0.0.1", 0);
  const StopEndsWaits scope(0);
  std::raise(SIGTERM);
  try {
    listener.accept(kLongSeconds);
    ADD_FAILURE() << "accept returned";
  } catch (const WaitStopped& e) {
    EXPECT_EQ(e.signal(), SIGTERM);
    EXPECT_EQ(std::string(e.what()),
              "stopped by SIGTERM while waiting for a vehicle to connect to 127.0.0.1:" + std::to_string(listener.port()));
  }
}

TEST(StopEndsWaits, CtrlCEndsTheWaitForAFrameAfterItsGrace) {
  const StopSignal stop;
  TcpListener listener("127.0.0.1", 0);
  std::unique_ptr<TcpChannel> client;
  std::thread connect([&] { client = tcp_connect("127.0.0.1", listener.port(), 10); });
  const std::unique_ptr<TcpChannel> server = listener.accept(10);
  connect.join();
  const StopEndsWaits scope(0.2);
  std::raise(SIGINT);
  try {
    server->receive(kLongSeconds);  // the client is silent
    ADD_FAILURE() << "receive returned";
  } catch (const WaitStopped& e) {
    EXPECT_EQ(e.signal(), SIGINT);
    EXPECT_EQ(std::string(e.what()).rfind("stopped by SIGINT while waiting for a message from tcp 127.0.0.1:", 0), 0u)
        << e.what();
  }
}

TEST(StopEndsWaits, OutsideAScopeASignalLeavesTheWaitToItsDeadline) {
  const StopSignal stop;
  TcpListener listener("127.0.0.1", 0);
  std::raise(SIGTERM);
  EXPECT_EQ(stop.caught(), SIGTERM);
  EXPECT_THROW(listener.accept(0.3), PeerTimeout);
}

}  // namespace
}  // namespace trackcosim::comm
