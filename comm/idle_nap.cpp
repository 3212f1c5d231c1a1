#include "comm/idle_nap.h"

#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <ctime>
#include <optional>

namespace {

std::atomic<std::int64_t> g_nap_nanoseconds{0};  ///< 0: sched_yield is the system call
std::atomic<std::int64_t> g_spin_nanoseconds{trackcosim::comm::kSpinBeforeNapMicroseconds * 1000};
std::atomic<std::uint64_t> g_naps{0};

/// The polls between two calls of one wait take a microsecond or two; a longer gap means the rank
/// did something else in between, so the next call starts a new wait (and polls again first).
constexpr std::int64_t kSameWaitGapNanoseconds = 10'000;

std::int64_t now_nanoseconds() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

}  // namespace

// The process's sched_yield (idle_nap.h says why). The caller that matters is Open MPI's progress
// loop (libgomp does not call it), which means "let someone else run".
extern "C" int sched_yield() noexcept {
  const std::int64_t nap = g_nap_nanoseconds.load(std::memory_order_relaxed);
  if (nap <= 0) return static_cast<int>(syscall(SYS_sched_yield));
  thread_local std::int64_t wait_start = 0, last_return = 0;
  const std::int64_t now = now_nanoseconds();
  if (now - last_return > kSameWaitGapNanoseconds) wait_start = now;
  if (now - wait_start >= g_spin_nanoseconds.load(std::memory_order_relaxed)) {
    g_naps.fetch_add(1, std::memory_order_relaxed);
    const timespec nap_time{0, static_cast<long>(nap)};
    nanosleep(&nap_time, nullptr);
  }
  last_return = now_nanoseconds();
  return 0;
}

namespace trackcosim::comm {

namespace {
/// An environment variable's whole microseconds from 0 to 100000; nothing when unset or outside.
std::optional<std::int64_t> microseconds_from(const char* name) {
  const char* text = std::getenv(name);
  if (!text || !*text) return std::nullopt;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (*end != '\0' || value < 0 || value > 100000) return std::nullopt;
  return value;
}
}  // namespace

void read_idle_nap_setting() {
  g_nap_nanoseconds = microseconds_from("TRACKCOSIM_MPI_NAP_US").value_or(0) * 1000;
  g_spin_nanoseconds = microseconds_from("TRACKCOSIM_MPI_SPIN_US").value_or(kSpinBeforeNapMicroseconds) * 1000;
}

std::uint64_t idle_naps_taken() { return g_naps; }

}  // namespace trackcosim::comm
