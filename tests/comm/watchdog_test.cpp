// The watchdog (comm/watchdog.h) ends a process that makes no progress, names what it did last
// and its limit, and does not count the time the process itself was stopped as the peer's
// silence: a SIGSTOP of the whole process extends the deadline by the time it was stopped.
#include "comm/watchdog.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <string>

namespace trackcosim::comm {
namespace {

TEST(WatchdogDeathTest, NoProgressEndsTheProcessNamingTheLastStepAndTheLimit) {
  EXPECT_EXIT(
      {
        Watchdog dog("test rank 0", 0.5);
        dog.beat("terrain step", 41);
        for (;;) pause();
      },
      testing::ExitedWithCode(kExitPeerLost),
      "test rank 0: error: no progress for [0-9]+ s since terrain step 41: a peer .* \\(exit status 3\\); limit 0.5 s\n");
}

TEST(WatchdogDeathTest, ABeatsAllowanceLengthensTheLimit) {
  EXPECT_EXIT(
      {
        Watchdog dog("test rank 0", 0.5);
        dog.beat("saving the bed", Watchdog::kNoNumber, 1.0);
        for (;;) pause();
      },
      testing::ExitedWithCode(kExitPeerLost), "since saving the bed: .*; limit 1.5 s\n");
}

// The process stops itself (SIGSTOP) right after its watchdog starts, and a helper it forked
// continues it 3 s after it sees it stopped, with a 2 s limit: without the accounting the
// watchdog would give up as soon as the process runs again. Nothing here depends on when the
// helper gets to run: the stop is the process's own, and the helper waits for it (a helper that
// stopped the process itself, once starved past the limit on a busy machine, let the watchdog
// fire first). The stopped process leads a process group of its own: a stopped member of
// ctest's group would have the kernel send SIGHUP to that whole group (every test running beside
// it) when any member exits, where the group is orphaned (ctest started without a terminal).
TEST(WatchdogDeathTest, TimeTheProcessWasStoppedExtendsTheLimitAndIsNamed) {
  EXPECT_EXIT(
      {
        setpgid(0, 0);
        signal(SIGHUP, SIG_IGN);
        const pid_t watched = getpid();
        if (fork() == 0) {
          // The third field of /proc/PID/stat is the state: T once the stop has taken.
          const std::string stat = "/proc/" + std::to_string(watched) + "/stat";
          for (;;) {
            std::ifstream in(stat);
            std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            const std::size_t close = text.rfind(')');
            if (close != std::string::npos && close + 2 < text.size() && text[close + 2] == 'T') break;
            usleep(10000);
          }
          sleep(3);
          kill(watched, SIGCONT);
          _exit(0);
        }
        Watchdog dog("test rank 0", 2.0);
        raise(SIGSTOP);
        for (;;) pause();
      },
      testing::ExitedWithCode(kExitPeerLost),
      "since its start: .*; limit 2 s, extended by ([3-9]|[1-9][0-9])(\\.[0-9])? s during which this process itself "
      "did not run \\(stopped or starved\\)\n");
}

}  // namespace
}  // namespace trackcosim::comm
