#include "comm/watchdog.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace trackcosim::comm {
namespace {

long long now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
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
  due_ms_.store(now + limit_ms_ + static_cast<long long>(longer_by * 1000), std::memory_order_release);
}

void Watchdog::watch() {
  std::unique_lock<std::mutex> lock(mutex_);
  long long last_look = now_ms();
  // A quarter of a second between looks: the job ends at most that long after the limit.
  while (!wake_.wait_for(lock, std::chrono::milliseconds(250), [this] { return stopping_; })) {
    const long long now = now_ms();
    // A look much later than planned: this whole process was stopped (SIGSTOP) or starved, and
    // that time is not its peers' silence.
    if (now - last_look > 1000) due_ms_.fetch_add(now - last_look, std::memory_order_acq_rel);
    last_look = now;
    const std::uint64_t number = number_.load(std::memory_order_relaxed);
    if (now < due_ms_.load(std::memory_order_acquire)) continue;
    const long long silent = now - last_beat_ms_.load(std::memory_order_relaxed);
    // stderr is unbuffered; the process ends here, without unwinding the main thread's stack
    // (it is blocked inside MPI), and the launcher ends the job's other processes.
    std::string last = last_done_.load(std::memory_order_relaxed);
    if (number != kNoNumber) last += " " + std::to_string(number);
    std::fprintf(stderr,
                 "%s: error: no progress for %.0f s since %s: a peer (another rank of this program, or the other "
                 "program) stopped answering; ending the job (exit status %d)\n",
                 who_.c_str(), static_cast<double>(silent) / 1000, last.c_str(), kExitPeerLost);
    std::fflush(stdout);
    std::_Exit(kExitPeerLost);
  }
}

}  // namespace trackcosim::comm
