// The progress line: its text (time, percentage, steps/s, ETA, contacts), how often it appears
// (driven by a fake clock), '\r' rewriting on a terminal and plain lines into a log.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <sstream>
#include <string>

#include "io/progress_meter.h"

namespace trackcosim::io {
namespace {

using Clock = io::ProgressMeter::Clock;
using std::chrono::milliseconds;

TEST(ProgressMeter, DurationsReadLikeAClock) {
  EXPECT_EQ(io::format_duration(4.44), "4.4 s");
  EXPECT_EQ(io::format_duration(185), "3 min 05 s");
  EXPECT_EQ(io::format_duration(7380), "2 h 03 min");
  EXPECT_EQ(io::format_duration(-1), "?");
}

TEST(ProgressMeter, LineNamesTimeRateEtaAndContacts) {
  const io::ProgressSample s{0.512, 2, 512, 12345};
  EXPECT_EQ(io::format_progress_line(s, 341.2, 4.4), "t 0.512 / 2 s (25.6%)  341.2 steps/s  ETA 4.4 s  12345 contacts");
  EXPECT_EQ(io::format_progress_line(s, -1, -1), "t 0.512 / 2 s (25.6%)  ? steps/s  ETA ?  12345 contacts");
}

TEST(ProgressMeter, PrintsOncePerIntervalAsPlainLinesIntoALog) {
  std::ostringstream out;
  const Clock::time_point t0{};
  io::ProgressMeter meter(out, 2.0, /*terminal=*/false, t0);
  meter.update({0.1, 1, 100, 5}, t0 + milliseconds(1000));
  EXPECT_EQ(out.str(), "");
  // 2 s after the start: 200 steps in 2 s; 0.2 of 1 s simulated in 2 s -> 8 s to go.
  meter.update({0.2, 1, 200, 7}, t0 + milliseconds(2000));
  EXPECT_EQ(out.str(), "t 0.2 / 1 s (20.0%)  100 steps/s  ETA 8.0 s  7 contacts\n");
  meter.update({0.3, 1, 300, 7}, t0 + milliseconds(3000));
  EXPECT_EQ(out.str().find('\n'), out.str().size() - 1);  // nothing new within the interval
  meter.update({0.4, 1, 400, 7}, t0 + milliseconds(4000));
  const std::string log = out.str();
  EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 2);
  EXPECT_EQ(log.find('\r'), std::string::npos);
  meter.finish();
  EXPECT_EQ(out.str(), log);  // nothing to close in a log
}

TEST(ProgressMeter, RewritesOneLineOnATerminal) {
  std::ostringstream out;
  const Clock::time_point t0{};
  io::ProgressMeter meter(out, 1.0, /*terminal=*/true, t0);
  meter.update({0.5, 1, 500, 123456}, t0 + milliseconds(1000));
  meter.update({0.6, 1, 600, 1}, t0 + milliseconds(2000));
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
  io::ProgressMeter meter(out, 0, false, t0);
  meter.update({0.5, 1, 500, 1}, t0 + std::chrono::hours(1));
  meter.finish();
  EXPECT_EQ(out.str(), "");
}

}  // namespace
}  // namespace trackcosim::io
