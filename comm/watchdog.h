#pragma once
// The last deadline of a distributed program: a thread that ends this process when its main
// thread has made no progress for too long. Channel waits (channel.h) have their own deadlines
// and name the peer; the watchdog covers every other wait on a peer that cannot be bounded from
// the outside: a collective inside a terrain step, a broadcast from the terrain leader, MPI's own
// start. A rank stuck there because another one was stopped or hung prints what it did last and
// exits with kExitPeerLost; mpirun (and srun --kill-on-bad-exit=1) then end every other rank.
//
// The main thread calls beat() at each unit of progress (a terrain step, a received command).
// Work that may rightly take longer than the limit (writing a large checkpoint) is announced by
// a beat with its allowance (`longer_by`): nothing is left unwatched.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace trackcosim::comm {

/// The exit status of a program that gave up on a peer (channel deadline or watchdog).
inline constexpr int kExitPeerLost = 3;

class Watchdog {
 public:
  /// `who` starts the message ("terrain_node rank 2"); limit_seconds <= 0 watches nothing.
  Watchdog(std::string who, double limit_seconds);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  /// Progress: the main thread has just done `done` (a string literal, kept by pointer) number
  /// `number` ("terrain step", 1234); the message of a hang names the last one.
  /// The next beat is due within the limit plus `longer_by` seconds (a wait known to hold two
  /// deadlines of the peer in a row).
  void beat(const char* done, std::uint64_t number, double longer_by = 0);

  /// For beat(): the thing done has no number.
  static constexpr std::uint64_t kNoNumber = ~std::uint64_t{0};

 private:
  void watch();

  std::string who_;
  long long limit_ms_;
  std::atomic<long long> last_beat_ms_;
  std::atomic<long long> due_ms_;
  // Of the silence since the last beat, the time this process itself did not run (a stopped or
  // starved process): the deadline was moved back by it, and the message says so.
  std::atomic<long long> unseen_ms_{0};
  std::atomic<const char*> last_done_;
  std::atomic<std::uint64_t> number_{kNoNumber};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace trackcosim::comm
