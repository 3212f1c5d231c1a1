#include "comm/deadline.h"

#include <cstdio>
#include <thread>

#include "comm/frame.h"
#include "comm/stop_signal.h"

namespace trackcosim::comm {
namespace {

double g_stop_grace = -1;  ///< the StopEndsWaits scope's grace; < 0: none

}  // namespace

Deadline::Deadline(Clock::time_point at, double seconds)
    : at_(at), last_check_(Clock::now()), seconds_(seconds), stop_grace_(g_stop_grace) {}

bool Deadline::stop_came(Clock::time_point now) {
  if (stop_grace_ < 0) return false;
  const int signal = caught_stop_signal();
  if (signal == 0) return false;
  if (!stop_at_) stop_at_ = now + std::chrono::microseconds(static_cast<long long>(stop_grace_ * 1e6));
  if (now < *stop_at_) return false;
  stopped_by_ = signal;
  return true;
}

StopEndsWaits::StopEndsWaits(double grace_seconds) { g_stop_grace = std::max(0.0, grace_seconds); }

StopEndsWaits::~StopEndsWaits() { g_stop_grace = -1; }

WaitStopped::WaitStopped(int signal, const std::string& during)
    : std::runtime_error(std::string("stopped by SIG") + signal_name(signal) + " " + during), signal_(signal) {}

void give_up(const Deadline& deadline, const std::string& during, const std::string& timeout_message) {
  if (deadline.stopped_by() != 0) throw WaitStopped(deadline.stopped_by(), during);
  throw PeerTimeout(timeout_message);
}

std::string Deadline::allowance() const {
  char text[32];
  std::snprintf(text, sizeof text, "%g s", seconds_);
  return text;
}

std::chrono::microseconds PollBackoff::nap(int polls, std::chrono::microseconds waited,
                                           std::chrono::microseconds quiet) {
  if (polls <= kSpinPolls) return std::chrono::microseconds(0);
  if (waited < quiet) return std::min(quiet - waited, kLongestQuietNap);
  return std::clamp(waited / kWaitPerNap, kShortestNap, kLongestNap);
}

std::chrono::microseconds PollBackoff::waited() const {
  return std::chrono::duration_cast<std::chrono::microseconds>(Deadline::Clock::now() - started_);
}

void PollBackoff::wait() {
  if (++polls_ <= kSpinPolls) return;
  std::this_thread::sleep_for(nap(polls_, waited(), quiet_));
}

}  // namespace trackcosim::comm
