#include "comm/stop_signal.h"

#include <csignal>

namespace trackcosim::comm {
namespace {

volatile std::sig_atomic_t g_caught = 0;
struct sigaction g_previous_usr1, g_previous_term, g_previous_int;

extern "C" void remember_signal(int signal) { g_caught = signal; }

}  // namespace

StopSignal::StopSignal() {
  g_caught = 0;
  struct sigaction action {};
  action.sa_handler = remember_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // a blocking MPI or socket call resumes instead of failing
  sigaction(SIGUSR1, &action, &g_previous_usr1);
  sigaction(SIGTERM, &action, &g_previous_term);
  sigaction(SIGINT, &action, &g_previous_int);
}

StopSignal::~StopSignal() {
  sigaction(SIGUSR1, &g_previous_usr1, nullptr);
  sigaction(SIGTERM, &g_previous_term, nullptr);
  sigaction(SIGINT, &g_previous_int, nullptr);
}

int StopSignal::caught() const { return caught_stop_signal(); }

int caught_stop_signal() { return static_cast<int>(g_caught); }

const char* signal_name(int signal) {
  switch (signal) {
    case SIGUSR1: return "USR1";
    case SIGTERM: return "TERM";
    case SIGINT: return "INT";
    default: return "a signal";
  }
}

}  // namespace trackcosim::comm
