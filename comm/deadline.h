#pragma once
// A point in time after which a wait on a peer gives up. Every wait in comm/ on another process
// (a frame to arrive, a frame to be taken, a socket to become writable) is bounded by one, so a
// peer that was stopped, hung or lost ends in a ChannelError naming it instead of a hang.
//
// A program asked to stop (a stop signal, stop_signal.h) while it waits for a peer that may never
// answer should not wait out the deadline and then blame the peer: inside a StopEndsWaits scope a
// deadline also passes `grace` seconds after the signal, and the wait ends in WaitStopped.

#include <algorithm>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>

namespace trackcosim::comm {

class Deadline {
 public:
  using Clock = std::chrono::steady_clock;

  /// `seconds` from now (and, inside a StopEndsWaits scope, its grace after a stop signal).
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
    return now >= at_ || stop_came(now);
  }
  /// The stop signal that ended the wait before its deadline (StopEndsWaits), or 0.
  int stopped_by() const { return stopped_by_; }
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

  Deadline(Clock::time_point at, double seconds);
  /// Whether a stop signal's grace has run out (and sets stopped_by_).
  bool stop_came(Clock::time_point now);

  Clock::time_point at_;
  Clock::time_point last_check_;
  double seconds_;
  double stop_grace_;                         ///< < 0: a stop signal does not end this wait
  std::optional<Clock::time_point> stop_at_;  ///< set when the signal is first seen
  int stopped_by_ = 0;
};

/// While one lives, every wait on a peer that the calling process starts (channel.h: a vehicle to
/// connect, a frame to arrive or to be taken) ends `grace_seconds` after a stop signal is caught
/// (stop_signal.h), or that long after the wait begins when the signal came earlier, with
/// WaitStopped. Outside one, a signal waits for the run's next step boundary, as it always did.
/// For the main thread's waits; scopes do not nest.
class StopEndsWaits {
 public:
  explicit StopEndsWaits(double grace_seconds);
  ~StopEndsWaits();
  StopEndsWaits(const StopEndsWaits&) = delete;
  StopEndsWaits& operator=(const StopEndsWaits&) = delete;
};

/// A wait on a peer that a stop signal ended (StopEndsWaits): not the peer's fault, so not a
/// ChannelError. what() is "stopped by SIG<name> <while ...>".
class WaitStopped : public std::runtime_error {
 public:
  WaitStopped(int signal, const std::string& during);
  int signal() const { return signal_; }

 private:
  int signal_;
};

/// The end of a wait whose `deadline` passed: WaitStopped(`during`) when a stop signal ended it,
/// else PeerTimeout(`timeout_message`) (frame.h).
[[noreturn]] void give_up(const Deadline& deadline, const std::string& during, const std::string& timeout_message);

/// Polling a nonblocking MPI request or probe for a peer's answer. A wait first polls without
/// pause for kSpinPolls polls (an answer is usually close), then naps between polls to leave the
/// core to the computation sharing it:
///   - through the `quiet` time the caller expects the peer to stay silent (most of its shorter
///     recent waits, MpiChannel::receive), in naps of at most kLongestQuietNap so that deadlines
///     and stop signals are still seen;
///   - then a fiftieth of the time already waited, from kShortestNap to kLongestNap.
/// Why: the vehicle waits a second or more for each heavy terrain step, on the cores the terrain
/// ranks compute on. Napping 100 us at a time it woke about 1,000 times per terrain step of the
/// M113 and took a core from a terrain rank each time, and the other rank then waited for it at
/// their next exchange (docs/ccp.md, "Heavy vehicles: where a coupling step's time goes"). Naps
/// of up to 20 ms without the quiet time woke it 13 times less but saw the answer 2.4% of a step
/// late; napping through the quiet time and then at most 2 ms, it wakes about a tenth as often
/// and sees the answer within 2 ms.
class PollBackoff {
 public:
  static constexpr int kSpinPolls = 1000;
  static constexpr std::chrono::microseconds kShortestNap{100};
  static constexpr std::chrono::microseconds kLongestNap{2000};
  static constexpr std::chrono::microseconds kLongestQuietNap{250000};
  static constexpr int kWaitPerNap = 50;

  explicit PollBackoff(std::chrono::microseconds quiet = std::chrono::microseconds(0)) : quiet_(quiet) {}

  /// The nap before the next poll, after `polls` polls over `waited`, with `quiet` expected
  /// (zero while spinning).
  static std::chrono::microseconds nap(int polls, std::chrono::microseconds waited,
                                       std::chrono::microseconds quiet = std::chrono::microseconds(0));
  void wait();
  /// How long this wait has lasted.
  std::chrono::microseconds waited() const;

 private:
  std::chrono::microseconds quiet_;
  int polls_ = 0;
  Deadline::Clock::time_point started_ = Deadline::Clock::now();
};

}  // namespace trackcosim::comm
