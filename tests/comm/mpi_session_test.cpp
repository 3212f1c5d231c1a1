// ensure_mpi(): a rank whose peer died must report it, not die of SIGPIPE on the closed socket.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

#include "comm/mpi_session.h"

namespace trackcosim::comm {
namespace {

TEST(MpiSession, AWriteToAClosedPeerFailsWithEpipeInsteadOfKillingTheRank) {
  ensure_mpi();
  int ends[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, ends), 0);
  close(ends[1]);  // the peer is gone
  const char byte = 'x';
  // Plain write(), as a transport library does: with SIGPIPE at its default this kills the test.
  errno = 0;
  EXPECT_EQ(write(ends[0], &byte, 1), -1);
  EXPECT_EQ(errno, EPIPE);
  close(ends[0]);
}

}  // namespace
}  // namespace trackcosim::comm
