#include "runtime/progress_meter.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

namespace trackcosim::runtime {
namespace {

std::string printf_string(const char* format, auto... values) {
  char buffer[160];
  const int n = std::snprintf(buffer, sizeof buffer, format, values...);
  return std::string(buffer, n > 0 ? std::min<std::size_t>(std::size_t(n), sizeof buffer - 1) : 0);
}

}  // namespace

std::string format_duration(double seconds) {
  if (!(seconds >= 0) || !std::isfinite(seconds)) return "?";
  if (seconds < 60) return printf_string("%.1f s", seconds);
  const auto whole = static_cast<long long>(std::llround(seconds));
  if (whole < 3600) return printf_string("%lld min %02lld s", whole / 60, whole % 60);
  return printf_string("%lld h %02lld min", whole / 3600, (whole % 3600) / 60);
}

std::string format_progress_line(const ProgressSample& s, double elapsed_seconds, double steps_per_second,
                                 double eta_seconds) {
  const double percent = s.end_time > 0 ? 100 * s.sim_time / s.end_time : 100;
  std::string line = printf_string("t %.6g / %.6g s (%.1f%%)  ", s.sim_time, s.end_time, percent);
  line += "elapsed " + format_duration(elapsed_seconds) + "  ";
  line += steps_per_second >= 0 ? printf_string("%.4g steps/s", steps_per_second) : std::string("? steps/s");
  line += "  ETA " + format_duration(eta_seconds);
  line += s.doing.empty() ? printf_string("  %llu contacts", static_cast<unsigned long long>(s.contacts))
                          : "  " + s.doing;
  return line;
}

bool stdout_is_terminal() { return ::isatty(STDOUT_FILENO) == 1; }

ProgressMeter::ProgressMeter(std::ostream& out, double interval_seconds, bool terminal, Clock::time_point start,
                             std::string label)
    : out_(out),
      interval_(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(interval_seconds))),
      enabled_(interval_seconds > 0),
      terminal_(terminal),
      start_(start),
      last_report_(start),
      label_(std::move(label)) {}

void ProgressMeter::update(const ProgressSample& s, Clock::time_point now) {
  // The pace is measured from the first sample on: a resumed run starts at its checkpoint's time.
  if (recent_.empty()) recent_.emplace_back(now, s.sim_time);
  if (!enabled_ || now - last_report_ < interval_) return;
  const double since_last = std::chrono::duration<double>(now - last_report_).count();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double steps_per_second = since_last > 0 ? double(s.steps - last_steps_) / since_last : -1;
  // The pace since the oldest report that is still within the recent window's reach.
  recent_.emplace_back(now, s.sim_time);
  const auto window = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(kRecentSeconds));
  while (recent_.size() > 2 && now - recent_[1].first >= window) recent_.pop_front();
  const double wall = std::chrono::duration<double>(now - recent_.front().first).count();
  const double simulated = s.sim_time - recent_.front().second;
  const double eta = simulated > 0 && wall > 0 ? (s.end_time - s.sim_time) * wall / simulated : -1;
  const std::string line = label_ + format_progress_line(s, elapsed, steps_per_second, eta);
  if (terminal_) {
    // Pad with blanks so that a shorter line fully covers the one before it.
    out_ << '\r' << line << std::string(last_width_ > line.size() ? last_width_ - line.size() : 0, ' ');
    last_width_ = line.size();
    line_open_ = true;
  } else {
    out_ << line + '\n';  // one write: a line in pieces can be split by another stream's output
  }
  out_.flush();
  last_report_ = now;
  last_steps_ = s.steps;
}

void ProgressMeter::finish() {
  if (line_open_) out_ << '\n';
  out_.flush();
  line_open_ = false;
}

}  // namespace trackcosim::runtime
