// The process's own sched_yield (comm/idle_nap.h): what Open MPI's idle polls do when waiting
// ranks nap. Each test calls sched_yield as Open MPI's progress loop does, one empty poll after
// another, and counts the naps.

#include <gtest/gtest.h>
#include <sched.h>
#include <stdlib.h>

#include <chrono>
#include <cstdint>
#include <thread>

#include "comm/idle_nap.h"

namespace {

using Clock = std::chrono::steady_clock;
using trackcosim::comm::idle_naps_taken;
using trackcosim::comm::read_idle_nap_setting;

class IdleNap : public ::testing::Test {
 protected:
  void TearDown() override {
    unsetenv("TRACKCOSIM_MPI_NAP_US");
    unsetenv("TRACKCOSIM_MPI_SPIN_US");
    read_idle_nap_setting();
  }
  static void nap_after(const char* spin_microseconds) {
    setenv("TRACKCOSIM_MPI_NAP_US", "20", 1);
    setenv("TRACKCOSIM_MPI_SPIN_US", spin_microseconds, 1);
    read_idle_nap_setting();
  }
  /// Empty polls, one right after the other, until a nap or `limit`; returns when the poll that
  /// napped returned (or the limit).
  static Clock::time_point poll_until_a_nap(Clock::duration limit) {
    const std::uint64_t before = idle_naps_taken();
    const Clock::time_point give_up = Clock::now() + limit;
    Clock::time_point returned;
    do {
      sched_yield();
      returned = Clock::now();
    } while (idle_naps_taken() == before && returned < give_up);
    return returned;
  }
};

TEST_F(IdleNap, WithoutANapSchedYieldIsTheSystemCall) {
  unsetenv("TRACKCOSIM_MPI_NAP_US");
  read_idle_nap_setting();
  const std::uint64_t before = idle_naps_taken();
  for (int i = 0; i < 100; ++i) sched_yield();
  EXPECT_EQ(idle_naps_taken(), before);
}

TEST_F(IdleNap, AWaitPollsThroughItsSpinWindowWithoutNapping) {
  nap_after("100000");  // 100 ms: a thousand polls take well under a millisecond
  const std::uint64_t before = idle_naps_taken();
  for (int i = 0; i < 1000; ++i) sched_yield();
  // A poll delayed by more than 10 us (the process taken off its core) starts a new wait, which
  // polls again: no nap either way.
  EXPECT_EQ(idle_naps_taken(), before);
}

TEST_F(IdleNap, AWaitLongerThanItsSpinWindowNapsAfterIt) {
  nap_after("200");
  const Clock::time_point start = Clock::now();
  const Clock::time_point napped = poll_until_a_nap(std::chrono::seconds(5));
  ASSERT_GT(idle_naps_taken(), 0u) << "5 s of empty polls and no nap";
  EXPECT_GE(napped - start, std::chrono::microseconds(200));
}

TEST_F(IdleNap, WithNoSpinWindowTheFirstEmptyPollNaps) {
  nap_after("0");
  const std::uint64_t before = idle_naps_taken();
  sched_yield();
  EXPECT_EQ(idle_naps_taken(), before + 1);
}

TEST_F(IdleNap, AWaitAfterWorkPollsAgainBeforeNapping) {
  nap_after("200");
  poll_until_a_nap(std::chrono::seconds(5));
  const std::uint64_t napped = idle_naps_taken();
  std::this_thread::sleep_for(std::chrono::milliseconds(1));  // the rank works, then waits again
  sched_yield();
  EXPECT_EQ(idle_naps_taken(), napped);
}

}  // namespace
