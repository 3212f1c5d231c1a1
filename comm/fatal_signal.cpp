#include "comm/fatal_signal.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace trackcosim::comm {
namespace {

constexpr int kExitCrashed = 1;  // the run failed (docs/exit-status.md)
constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
constexpr int kMostFrames = 24;

// Filled before any crash: the handler only reads them.
char who_text[128] = "process";
bool installed = false;
// Its own stack, so that a stack overflow is reported too.
alignas(16) char handler_stack[64 * 1024];

const char* signal_name(int signal) {
  switch (signal) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    default: return "SIGILL";
  }
}

/// The instruction that faulted, from the signal's context (0 where this architecture is not known).
std::uintptr_t faulting_instruction(void* context) {
  const auto* uc = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
  return static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  return static_cast<std::uintptr_t>(uc->uc_mcontext.pc);
#else
  (void)uc;
  return 0;
#endif
}

void write_text(const char* text) {
  for (std::size_t left = std::strlen(text); left > 0;) {
    const ssize_t n = write(STDERR_FILENO, text, left);
    if (n <= 0) return;
    text += n;
    left -= static_cast<std::size_t>(n);
  }
}

bool is_mpi_library(const char* name) {
  return std::strstr(name, "libmpi") != nullptr || std::strstr(name, "mca_") != nullptr ||
         std::strstr(name, "libopen-") != nullptr || std::strstr(name, "pmix") != nullptr;
}

/// " in libc.so.6 (memcpy+0x1a)": the object and the exported function around `address`.
void describe(std::uintptr_t address, char* text, std::size_t size, const char** object_name) {
  Dl_info where{};
  if (address == 0 || dladdr(reinterpret_cast<void*>(address), &where) == 0 || where.dli_fname == nullptr) {
    std::snprintf(text, size, " in an unknown object");
    *object_name = "";
    return;
  }
  const char* slash = std::strrchr(where.dli_fname, '/');
  *object_name = slash ? slash + 1 : where.dli_fname;
  if (where.dli_sname != nullptr)
    std::snprintf(text, size, " in %s (%s+0x%lx)", *object_name, where.dli_sname,
                  static_cast<unsigned long>(address - reinterpret_cast<std::uintptr_t>(where.dli_saddr)));
  else
    std::snprintf(text, size, " in %s", *object_name);
}

// dladdr and snprintf are not on POSIX's list of async-signal-safe calls; neither takes a lock
// that a faulting thread could hold in glibc, and SA_RESETHAND makes a fault in here end the
// process with the default action rather than loop.
void on_fatal_signal(int signal, siginfo_t* info, void* context) {
  char at[256], caller[320] = "";
  const char* object = "";
  describe(faulting_instruction(context), at, sizeof at, &object);
  // A crash inside the MPI library often faults in libc (memcpy) on its behalf: the frames say
  // whose call it was.
  void* frames[kMostFrames];
  const int count = backtrace(frames, kMostFrames);
  bool in_mpi = is_mpi_library(object);
  for (int i = 0; i < count && !in_mpi; ++i) {
    const char* frame_object = "";
    char frame_text[256];
    describe(reinterpret_cast<std::uintptr_t>(frames[i]), frame_text, sizeof frame_text, &frame_object);
    if (is_mpi_library(frame_object)) {
      in_mpi = true;
      std::snprintf(caller, sizeof caller, ", called from the MPI library%s", frame_text);
    }
  }
  char line[1024];
  std::snprintf(line, sizeof line, "%s: fatal: %s (address 0x%lx)%s%s: %s; ending with exit status %d. Frames:\n",
                who_text, signal_name(signal), reinterpret_cast<unsigned long>(info->si_addr), at, caller,
                in_mpi ? "inside the MPI library: Open MPI's messages above name what failed before it (a lost "
                         "or unreachable host); report the frames below with them"
                       : "a defect of this program: please report it with this line and the frames below",
                kExitCrashed);
  write_text(line);
  backtrace_symbols_fd(frames, count, STDERR_FILENO);
  _exit(kExitCrashed);
}

}  // namespace

void report_fatal_signals(const std::string& who) {
  std::snprintf(who_text, sizeof who_text, "%s", who.c_str());
  if (installed) return;
  installed = true;
  void* warm[1];
  backtrace(warm, 1);  // loads libgcc's unwinder now: its first use allocates
  stack_t stack{};
  stack.ss_sp = handler_stack;
  stack.ss_size = sizeof handler_stack;
  sigaltstack(&stack, nullptr);
  struct sigaction action {};
  action.sa_sigaction = on_fatal_signal;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  for (const int signal : kFatalSignals) sigaction(signal, &action, nullptr);
}

}  // namespace trackcosim::comm
