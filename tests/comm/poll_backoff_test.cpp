// How a wait on a peer polls (comm/deadline.h, PollBackoff): at once for the first polls, then
// napping through the time the peer is expected to stay quiet, then with naps that grow with the
// time already waited, up to 2 ms. A vehicle waiting a second for a heavy terrain step then wakes
// about a hundred times, not a thousand, and still sees the answer within 2 ms.

#include <algorithm>
#include <chrono>

#include <gtest/gtest.h>

#include "comm/deadline.h"

namespace trackcosim::comm {
namespace {

using std::chrono::microseconds;
using std::chrono::milliseconds;

TEST(PollBackoff, SpinsThroughItsFirstPollsWhateverTheWait) {
  EXPECT_EQ(PollBackoff::nap(1, microseconds(0)).count(), 0);
  EXPECT_EQ(PollBackoff::nap(PollBackoff::kSpinPolls, milliseconds(500)).count(), 0);
}

TEST(PollBackoff, NapsAFiftiethOfTheWaitBetween100usAnd2ms) {
  const int past_spin = PollBackoff::kSpinPolls + 1;
  EXPECT_EQ(PollBackoff::nap(past_spin, microseconds(0)), microseconds(100));
  EXPECT_EQ(PollBackoff::nap(past_spin, milliseconds(2)), microseconds(100));
  EXPECT_EQ(PollBackoff::nap(past_spin, milliseconds(50)), milliseconds(1));
  EXPECT_EQ(PollBackoff::nap(past_spin, milliseconds(100)), milliseconds(2));
  EXPECT_EQ(PollBackoff::nap(past_spin, milliseconds(500)), milliseconds(2));
  EXPECT_EQ(PollBackoff::nap(past_spin, std::chrono::seconds(60)), PollBackoff::kLongestNap);
}

TEST(PollBackoff, NapsThroughTheQuietTimeInSlicesThatStillSeeADeadline) {
  const int past_spin = PollBackoff::kSpinPolls + 1;
  const milliseconds quiet(300);
  EXPECT_EQ(PollBackoff::nap(1, microseconds(0), quiet).count(), 0);  // the spin comes first
  EXPECT_EQ(PollBackoff::nap(past_spin, milliseconds(1), quiet), PollBackoff::kLongestQuietNap);
  EXPECT_EQ(PollBackoff::nap(past_spin, milliseconds(250), quiet), milliseconds(50));
  // Past the quiet time: a fiftieth of the wait again.
  EXPECT_EQ(PollBackoff::nap(past_spin, milliseconds(300), quiet), milliseconds(2));
}

/// Naps a wait of `length` takes when the answer comes at its end, walked as wait() does (the polls
/// themselves taken as instant); checks that each nap oversleeps an answer by at most 2% of the
/// time waited (or kShortestNap) once past the quiet time.
int naps_in_a_wait(milliseconds length, microseconds quiet) {
  microseconds waited(0);
  int naps = 0;
  for (int polls = PollBackoff::kSpinPolls + 1; waited < length; ++polls, ++naps) {
    const microseconds nap = PollBackoff::nap(polls, waited, quiet);
    if (waited >= quiet) {
      EXPECT_LE(nap, std::max(PollBackoff::kShortestNap, waited / PollBackoff::kWaitPerNap));
    }
    waited += nap;
  }
  return naps;
}

TEST(PollBackoff, AOneSecondWaitWakesAboutAHundredTimesWhenItsQuietTimeIsKnown) {
  const int blind = naps_in_a_wait(milliseconds(1000), microseconds(0));
  const int told = naps_in_a_wait(milliseconds(1000), milliseconds(750));  // 3/4 of the last waits
  // 100 us naps for 5 ms, 2% growth to 100 ms (about 150), then 2 ms naps (450): about 650
  EXPECT_GT(blind, 550);
  EXPECT_LT(blind, 750);
  EXPECT_LT(told, 140);  // three naps to 750 ms, then 2 ms naps: 125
  EXPECT_GT(told, 120);
}

}  // namespace
}  // namespace trackcosim::comm
