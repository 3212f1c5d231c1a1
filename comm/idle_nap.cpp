#include "comm/idle_nap.h"

#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <ctime>

namespace {

std::atomic<int> g_nap_microseconds{0};  ///< 0: sched_yield is the system call
std::atomic<std::uint64_t> g_naps{0};

}  // namespace

// The process's sched_yield (idle_nap.h says why). The caller that matters is Open MPI's progress
// loop (libgomp does not call it), which means "let someone else run".
extern "C" int sched_yield() noexcept {
  const int microseconds = g_nap_microseconds.load(std::memory_order_relaxed);
  if (microseconds <= 0) return static_cast<int>(syscall(SYS_sched_yield));
  g_naps.fetch_add(1, std::memory_order_relaxed);
  const timespec nap{0, static_cast<long>(microseconds) * 1000};
  nanosleep(&nap, nullptr);
  return 0;
}

namespace trackcosim::comm {

void read_idle_nap_setting() {
  const char* text = std::getenv("TRACKCOSIM_MPI_NAP_US");
  const int microseconds = text ? std::atoi(text) : 0;
  g_nap_microseconds = microseconds > 0 && microseconds <= 100000 ? microseconds : 0;
}

std::uint64_t idle_naps_taken() { return g_naps; }

}  // namespace trackcosim::comm
