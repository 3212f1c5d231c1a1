// The progress line: its text (time, percentage, elapsed, steps/s, ETA, contacts or what the run
// is doing), how often it appears (driven by a fake clock), an ETA that follows the recent pace,
// '\r' rewriting on a terminal and plain lines into a log.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <sstream>
#include <string>

#include "runtime/progress_meter.h"

namespace trackcosim::runtime {
namespace {

using Clock = runtime::ProgressMeter::Clock;
using std::chrono::milliseconds;

TEST(ProgressMeter, DurationsReadLikeAClock) {
  EXPECT_EQ(runtime::format_duration(4.44), "4.4 s");
  EXPECT_EQ(runtime::format_duration(185), "3 min 05 s");
  EXPECT_EQ(runtime::format_duration(7380), "2 h 03 min");
  EXPECT_EQ(runtime::format_duration(-1), "?");
}

TEST(ProgressMeter, LineNamesTimeElapsedRateEtaAndContacts) {
  runtime::ProgressSample s{0.512, 2, 512, 12345, ""};
  EXPECT_EQ(runtime::format_progress_line(s, 62, 341.2, 4.4),
            "t 0.512 / 2 s (25.6%)  elapsed 1 min 02 s  341.2 steps/s  ETA 4.4 s  12345 contacts");
  EXPECT_EQ(runtime::format_progress_line(s, 1.5, -1, -1), "t 0.512 / 2 s (25.6%)  elapsed 1.5 s  ? steps/s  ETA ?  12345 contacts");
  s.doing = "0.55 m/s, 0.42 m travelled";
  EXPECT_EQ(runtime::format_progress_line(s, 1.5, 10, 20),
            "t 0.512 / 2 s (25.6%)  elapsed 1.5 s  10 steps/s  ETA 20.0 s  0.55 m/s, 0.42 m travelled");
}

// A run that slows down to a quarter of its pace (the vehicle has landed on the grains): once
// the slow pace has lasted the recent window, the ETA is the slow pace's, where the average since
// the start would still promise less than half of it.
TEST(ProgressMeter, EtaFollowsTheRecentPace) {
  std::ostringstream out;
  const Clock::time_point t0{};
  runtime::ProgressMeter meter(out, 1.0, /*terminal=*/false, t0);
  meter.update({0.0, 10, 0, 0, ""}, t0);
  double t = 0;
  for (int second = 1; second <= 100; ++second) {  // 0.04 s per wall second, then 0.01
    t += second <= 50 ? 0.04 : 0.01;
    meter.update({t, 10, std::uint64_t(second), 0}, t0 + std::chrono::seconds(second));
  }
  const std::string log = out.str();
  const std::string last = log.substr(log.rfind('\n', log.size() - 2) + 1);
  // 2.5 s simulated in 100 s; 7.5 s left at 0.01 s per second = 750 s (the average: 300 s).
  EXPECT_NE(last.find("ETA 12 min 30 s"), std::string::npos) << last;
}

TEST(ProgressMeter, EtaOfAResumedRunCountsOnlyItsOwnProgress) {
  std::ostringstream out;
  const Clock::time_point t0{};
  runtime::ProgressMeter meter(out, 1.0, false, t0);
  meter.update({5.0, 10, 0, 0, ""}, t0);                            // resumed at t = 5 s
  meter.update({5.5, 10, 500, 0, ""}, t0 + std::chrono::seconds(5));  // 0.1 s per wall second
  EXPECT_NE(out.str().find("ETA 45.0 s"), std::string::npos) << out.str();
}

TEST(ProgressMeter, PrintsOncePerIntervalAsPlainLinesIntoALog) {
  std::ostringstream out;
  const Clock::time_point t0{};
  runtime::ProgressMeter meter(out, 2.0, /*terminal=*/false, t0);
  meter.update({0.1, 1, 100, 5, ""}, t0 + milliseconds(1000));
  EXPECT_EQ(out.str(), "");
  // 2 s after the start: 200 steps in 2 s; 0.1 s simulated in the 1 s since the first sample
  // -> 8 s to go.
  meter.update({0.2, 1, 200, 7, ""}, t0 + milliseconds(2000));
  EXPECT_EQ(out.str(), "t 0.2 / 1 s (20.0%)  elapsed 2.0 s  100 steps/s  ETA 8.0 s  7 contacts\n");
  meter.update({0.3, 1, 300, 7, ""}, t0 + milliseconds(3000));
  EXPECT_EQ(out.str().find('\n'), out.str().size() - 1);  // nothing new within the interval
  meter.update({0.4, 1, 400, 7, ""}, t0 + milliseconds(4000));
  const std::string log = out.str();
  EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 2);
  EXPECT_EQ(log.find('\r'), std::string::npos);
  meter.finish();
  EXPECT_EQ(out.str(), log);  // nothing to close in a log
}

TEST(ProgressMeter, RewritesOneLineOnATerminal) {
  std::ostringstream out;
  const Clock::time_point t0{};
  runtime::ProgressMeter meter(out, 1.0, /*terminal=*/true, t0);
  meter.update({0.5, 1, 500, 123456, ""}, t0 + milliseconds(1000));
  meter.update({0.6, 1, 600, 1, ""}, t0 + milliseconds(2000));
  const std::string text = out.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\r'), 2);
  EXPECT_EQ(text.find('\n'), std::string::npos);
  // The second, shorter line is padded to cover the first.
  const std::size_t second = text.rfind('\r');
  EXPECT_EQ(text.size() - second, second);
  meter.finish();
  EXPECT_TRUE(out.str().ends_with("\n"));
}

TEST(ProgressMeter, ZeroIntervalNeverPrints) {
  std::ostringstream out;
  const Clock::time_point t0{};
  runtime::ProgressMeter meter(out, 0, false, t0);
  meter.update({0.5, 1, 500, 1, ""}, t0 + std::chrono::hours(1));
  meter.finish();
  EXPECT_EQ(out.str(), "");
}

}  // namespace
}  // namespace trackcosim::runtime
