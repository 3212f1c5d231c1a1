#pragma once
// The progress line of long runs: simulated time against end time, the wall time so far, steps
// per second, the time left, and what the run is doing physically (the terrain's contact count,
// the vehicle's speed), printed once every few seconds of wall time. On a terminal it is one
// line rewritten in place ('\r'); into a file or pipe (batch jobs) each report is a plain line,
// so a log shows the run's pace without control characters. The terrain and vehicle programs
// share it.
//
//   t 0.512 / 2 s (25.6%)  elapsed 1 min 02 s  341 steps/s  ETA 4.4 s  12345 contacts
//
// The ETA extrapolates the recent pace (the last kRecentSeconds of wall time), not the average
// since the start: a co-simulation slows down once the vehicle loads the terrain (more contacts),
// and an estimate from the whole run would stay too low until the end.

#include <chrono>
#include <cstdint>
#include <deque>
#include <ostream>
#include <string>

namespace trackcosim::runtime {

struct ProgressSample {
  double sim_time = 0;  ///< [s]
  double end_time = 0;  ///< [s]
  std::uint64_t steps = 0;
  std::uint64_t contacts = 0;
  /// What the run is doing in its own words ("0.55 m/s, 0.42 m travelled"); when not empty it
  /// is printed instead of the contact count.
  std::string doing;
};

/// "4.4 s", "3 min 05 s", "2 h 03 min"; "?" for a negative or non-finite value.
std::string format_duration(double seconds);

/// The line without line end. A negative steps_per_second or eta_seconds prints as "?".
std::string format_progress_line(const ProgressSample& sample, double elapsed_seconds, double steps_per_second,
                                 double eta_seconds);

/// Whether standard output is a terminal (isatty).
bool stdout_is_terminal();

class ProgressMeter {
 public:
  using Clock = std::chrono::steady_clock;

  /// interval_seconds = 0 never prints. `start` is when the run began (for the ETA). `label`
  /// opens every line ("vehicle_node: "), where two programs share a terminal.
  ProgressMeter(std::ostream& out, double interval_seconds, bool terminal, Clock::time_point start = Clock::now(),
                std::string label = {});

  /// The wall time over which the ETA measures the pace.
  static constexpr double kRecentSeconds = 30;

  /// Call after every step; prints when `interval_seconds` have passed since the last report.
  /// Steps per second are over that interval; the ETA extrapolates the simulated time per wall
  /// second over the last kRecentSeconds (since the start while the run is younger).
  void update(const ProgressSample& sample, Clock::time_point now = Clock::now());
  /// Ends a rewritten terminal line so that later output starts on a line of its own.
  void finish();

 private:
  std::ostream& out_;
  Clock::duration interval_;
  bool enabled_;
  bool terminal_;
  bool line_open_ = false;
  Clock::time_point start_, last_report_;
  std::string label_;
  std::uint64_t last_steps_ = 0;
  /// (wall, simulated time) of the reports within the recent window, and the oldest just before it.
  std::deque<std::pair<Clock::time_point, double>> recent_;
  std::size_t last_width_ = 0;
};

}  // namespace trackcosim::runtime
