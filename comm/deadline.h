#pragma once
// A point in time after which a wait on a peer gives up. Every wait in comm/ on another process
// (a frame to arrive, a frame to be taken, a socket to become writable) is bounded by one, so a
// peer that was stopped, hung or lost ends in a ChannelError naming it instead of a hang.

#include <algorithm>
#include <chrono>
#include <string>

namespace trackcosim::comm {

class Deadline {
 public:
  using Clock = std::chrono::steady_clock;

  /// `seconds` from now.
  static Deadline after(double seconds) {
    return Deadline(Clock::now() + std::chrono::microseconds(static_cast<long long>(seconds * 1e6)), seconds);
  }

  /// Checked often (at least every kSlice): a gap between two checks longer than kOwnPause is
  /// time this process did not run (it was stopped with SIGSTOP, suspended, swapped out), which
  /// is not the peer's silence, so the deadline moves by it. Without this, a stopped process
  /// that is continued would blame the peer that was waiting for it.
  bool passed() {
    const Clock::time_point now = Clock::now();
    if (now - last_check_ > kOwnPause) at_ += now - last_check_;
    last_check_ = now;
    return now >= at_;
  }
  /// For poll(2): whole milliseconds to wait before checking passed() again.
  int milliseconds_left() const {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(at_ - Clock::now()).count();
    return left > 0 ? static_cast<int>(std::min<long long>(left, kSlice.count())) : 0;
  }
  /// "20 s": the allowance, for messages.
  std::string allowance() const;

 private:
  static constexpr std::chrono::milliseconds kSlice{250};
  static constexpr std::chrono::milliseconds kOwnPause{1000};

  Deadline(Clock::time_point at, double seconds) : at_(at), last_check_(Clock::now()), seconds_(seconds) {}
  Clock::time_point at_;
  Clock::time_point last_check_;
  double seconds_;
};

/// Polling a nonblocking MPI request or probe: spins for the first polls (an answer is usually
/// close), then sleeps between them to leave the core to the computation sharing it.
class PollBackoff {
 public:
  void wait();

 private:
  int polls_ = 0;
};

}  // namespace trackcosim::comm
