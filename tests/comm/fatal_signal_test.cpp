// A crash ends the process with one line naming the signal, the address and where it happened,
// then the frames, and exit status 1 (comm/fatal_signal.h); the MPI case is
// tests/comm/crash_in_mpi_job.sh.
#include "comm/fatal_signal.h"

#include <gtest/gtest.h>

#include <cstring>

namespace trackcosim::comm {
namespace {

// Through a volatile pointer, so that the compiler keeps the faulting access.
const char* volatile no_text = nullptr;
int* volatile no_number = nullptr;

TEST(FatalSignalDeathTest, ACrashInThisProgramIsOneLineNamingItThenTheFrames) {
  EXPECT_EXIT(
      {
        report_fatal_signals("test_program rank 0");
        *no_number = 1;
      },
      testing::ExitedWithCode(1),
      "test_program rank 0: fatal: SIGSEGV \\(address 0x0\\) in comm_tests[^\n]*: a defect of this program: please "
      "report it with this line and the frames below; ending with exit status 1. Frames:\n.*comm_tests");
}

// A fault inside a library is named by the library (libc here, for a null string).
TEST(FatalSignalDeathTest, ACrashInALibraryNamesTheLibrary) {
  EXPECT_EXIT(
      {
        report_fatal_signals("test_program rank 0");
        std::printf("%zu\n", std::strlen(no_text));
      },
      testing::ExitedWithCode(1), "test_program rank 0: fatal: SIGSEGV \\(address 0x0\\) in libc\\.so\\.6");
}

TEST(FatalSignalDeathTest, ASecondCallRenamesTheReport) {
  EXPECT_EXIT(
      {
        report_fatal_signals("terrain_node rank 0");
        report_fatal_signals("terrain_node rank 3");
        *no_number = 1;
      },
      testing::ExitedWithCode(1), "^terrain_node rank 3: fatal: SIGSEGV");
}

}  // namespace
}  // namespace trackcosim::comm
