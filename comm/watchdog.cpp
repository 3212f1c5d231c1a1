#include "comm/watchdog.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace trackcosim::comm {
namespace {

long long now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// "3 s", "0.5 s": milliseconds as whole seconds where they are whole.
std::string seconds_text(long long ms) {
  char text[32];
  std::snprintf(text, sizeof text, ms % 1000 == 0 ? "%.0f s" : "%.1f s", static_cast<double>(ms) / 1000);
  return text;
}

}  // namespace

Watchdog::Watchdog(std::string who, double limit_seconds)
    : who_(std::move(who)),
      limit_ms_(static_cast<long long>(limit_seconds * 1000)),
      last_beat_ms_(now_ms()),
      due_ms_(last_beat_ms_.load() + limit_ms_),
      last_done_("its start") {
  if (limit_ms_ > 0) thread_ = std::thread([this] { watch(); });
}

Watchdog::~Watchdog() {
  if (!thread_.joinable()) return;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void Watchdog::beat(const char* done, std::uint64_t number, double longer_by) {
  const long long now = now_ms();
  last_done_.store(done, std::memory_order_relaxed);
  number_.store(number, std::memory_order_relaxed);
  last_beat_ms_.store(now, std::memory_order_relaxed);
  unseen_ms_.store(0, std::memory_order_relaxed);
  due_ms_.store(now + limit_ms_ + static_cast<long long>(longer_by * 1000), std::memory_order_release);
}

void Watchdog::watch() {
  std::unique_lock<std::mutex> lock(mutex_);
  // From the moment the deadline is counted from, not from this thread's start: a process stopped
  // before the thread first ran (a SIGSTOP right after the constructor) has its stop seen at the
  // first look, instead of a deadline that passed while it was stopped.
  long long last_look = last_beat_ms_.load(std::memory_order_relaxed);
  // A quarter of a second between looks: the job ends at most that long after the limit.
  while (!wake_.wait_for(lock, std::chrono::milliseconds(250), [this] { return stopping_; })) {
    const long long now = now_ms();
    // A look much later than planned: this whole process was stopped (SIGSTOP) or starved, and
    // that time is not its peers' silence.
    if (now - last_look > 1000) {
      due_ms_.fetch_add(now - last_look, std::memory_order_acq_rel);
      unseen_ms_.fetch_add(now - last_look, std::memory_order_relaxed);
    }
    last_look = now;
    const std::uint64_t number = number_.load(std::memory_order_relaxed);
    if (now < due_ms_.load(std::memory_order_acquire)) continue;
    const long long silent = now - last_beat_ms_.load(std::memory_order_relaxed);
    // stderr is unbuffered; the process ends here, without unwinding the main thread's stack
    // (it is blocked inside MPI), and the launcher ends the job's other processes.
    std::string last = last_done_.load(std::memory_order_relaxed);
    if (number != kNoNumber) last += " " + std::to_string(number);
    // The limit is named, and the time this process did not run, so that a silence longer than
    // the limit is accounted for.
    const long long unseen = unseen_ms_.load(std::memory_order_relaxed);
    const long long limit = due_ms_.load(std::memory_order_relaxed) - last_beat_ms_.load(std::memory_order_relaxed) -
                            unseen;
    std::string accounting = "; limit " + seconds_text(limit);
    if (unseen > 0)
      accounting += ", extended by " + seconds_text(unseen) +
                    " during which this process itself did not run (stopped or starved)";
    std::fprintf(stderr,
                 "%s: error: no progress for %.0f s since %s: a peer (another rank of this program, or the other "
                 "program) stopped answering; ending the job (exit status %d)%s\n",
                 who_.c_str(), static_cast<double>(silent) / 1000, last.c_str(), kExitPeerLost, accounting.c_str());
    std::fflush(stdout);
    std::_Exit(kExitPeerLost);
  }
}

}  // namespace trackcosim::comm
