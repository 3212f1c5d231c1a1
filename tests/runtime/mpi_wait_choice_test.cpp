// choose_mpi_wait (runtime/mpi_wait_choice.h): whether waiting MPI ranks poll, yield their core or nap,
// from the user's settings, the ranks on the node, its cores and the other work busy on it.

#include "runtime/mpi_wait_choice.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace trackcosim::runtime {
namespace {

/// `ranks` Open MPI ranks on a node of `cores` cores, `busy` of them busy with other work.
MpiWaitInputs node(int ranks, int cores, double busy) {
  MpiWaitInputs in;
  in.threads.ompi_local_size = std::to_string(ranks);
  in.threads.hardware_cpus = cores;
  in.busy_cores = busy;
  return in;
}

TEST(MpiWaitChoice, TheUsersOpenMpiSettingStandsAndNothingIsExported) {
  MpiWaitInputs in = node(3, 2, 2.0);  // would nap
  in.ompi_yield = "0";
  in.requested = "yield";
  const MpiWaitChoice c = choose_mpi_wait(in);
  EXPECT_EQ(c.export_value, "");
  EXPECT_EQ(c.nap_microseconds, 0);
  EXPECT_EQ(c.wait, "spin");
  EXPECT_EQ(c.reason, "OMPI_MCA_mpi_yield_when_idle");
}

TEST(MpiWaitChoice, TrackcosimMpiWaitIsObeyedEachWay) {
  MpiWaitInputs in = node(2, 16, 0.0);
  in.requested = "yield";
  EXPECT_EQ(choose_mpi_wait(in).export_value, "1");
  EXPECT_EQ(choose_mpi_wait(in).nap_microseconds, 0);
  in.requested = "nap";  // naps ride on Open MPI's yields (comm/idle_nap.h)
  EXPECT_EQ(choose_mpi_wait(in).export_value, "1");
  EXPECT_EQ(choose_mpi_wait(in).nap_microseconds, kMpiNapMicroseconds);
  MpiWaitInputs crowded = node(3, 2, 3.0);
  crowded.requested = "spin";  // even where Open MPI would yield by itself
  const MpiWaitChoice c = choose_mpi_wait(crowded);
  EXPECT_EQ(c.export_value, "0");
  EXPECT_EQ(c.wait, "spin");
  EXPECT_FALSE(c.noteworthy);
}

TEST(MpiWaitChoice, TheNapIsTrackcosimMpiNapUsWhenTheyNapAndNothingOtherwise) {
  MpiWaitInputs in = node(2, 2, 2.0);
  in.nap = "5";
  EXPECT_EQ(choose_mpi_wait(in).nap_microseconds, 5);
  in.busy_cores = 0.0;  // quiet: they poll, whatever the nap would be
  EXPECT_EQ(choose_mpi_wait(in).nap_microseconds, 0);
  in.busy_cores = 2.0;
  for (const char* bad : {"0", "-3", "2.5", "fast", "100001"}) {
    in.nap = bad;
    EXPECT_THROW(choose_mpi_wait(in), std::invalid_argument) << bad;
  }
}

TEST(MpiWaitChoice, AnUnknownRequestIsRefusedNamingTheChoices) {
  MpiWaitInputs in = node(2, 2, 0.0);
  in.requested = "sleep";
  try {
    choose_mpi_wait(in);
    FAIL() << "TRACKCOSIM_MPI_WAIT=sleep was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "TRACKCOSIM_MPI_WAIT=sleep: expected spin, yield, nap or auto");
  }
}

TEST(MpiWaitChoice, OurOwnRanksOnTooFewCoresYieldAsUnderSrunWhereOpenMpiCannotTell) {
  MpiWaitInputs in;
  in.threads.slurm_tasks_per_node = "3";  // sbatch -n 3 -O on a 2-core node: no Open MPI count yet
  in.threads.hardware_cpus = 2;
  in.busy_cores = 0.1;  // the launcher starting them
  const MpiWaitChoice c = choose_mpi_wait(in);
  EXPECT_EQ(c.export_value, "1");
  EXPECT_EQ(c.nap_microseconds, 0);  // a yield hands the core to another rank of ours
  EXPECT_EQ(c.reason, "oversubscribed: 3 ranks on 2 cores");
  EXPECT_FALSE(c.noteworthy);  // the thread choice already warns of it
}

TEST(MpiWaitChoice, ANodeBusyWithOtherWorkNapsAndSaysWhy) {
  // Two ranks on two cores beside two other busy processes: the README's busy-node example.
  const MpiWaitChoice c = choose_mpi_wait(node(2, 2, 1.98));
  EXPECT_EQ(c.export_value, "1");
  EXPECT_EQ(c.nap_microseconds, kMpiNapMicroseconds);
  EXPECT_EQ(c.wait, "nap");
  EXPECT_EQ(c.reason, "node shared: 1.98 cores busy + 2 ranks on 2 cores");
  EXPECT_TRUE(c.noteworthy);
  EXPECT_NE(mpi_wait_note(c).find("TRACKCOSIM_MPI_WAIT=spin"), std::string::npos);
  // Other work beside an oversubscribed job: a yield would go to that work too.
  EXPECT_EQ(choose_mpi_wait(node(3, 2, 1.0)).wait, "nap");
}

TEST(MpiWaitChoice, AQuietNodeKeepsOpenMpisPolling) {
  const MpiWaitChoice c = choose_mpi_wait(node(2, 2, 0.3));  // a desktop's background
  EXPECT_EQ(c.export_value, "");
  EXPECT_EQ(c.nap_microseconds, 0);
  EXPECT_EQ(c.wait, "Open MPI's default");
  EXPECT_EQ(mpi_wait_note(c), "");
}

TEST(MpiWaitChoice, SharingStartsAtHalfACoreOfOtherWorkBeyondTheFreeCores) {
  EXPECT_EQ(choose_mpi_wait(node(16, 16, 0.49)).wait, "Open MPI's default");
  EXPECT_EQ(choose_mpi_wait(node(16, 16, 0.5)).wait, "nap");
  EXPECT_EQ(choose_mpi_wait(node(8, 16, 8.4)).wait, "Open MPI's default");  // 8 cores stay free for 8 ranks
  EXPECT_EQ(choose_mpi_wait(node(8, 16, 8.5)).wait, "nap");
}

TEST(MpiWaitChoice, AnUnknownLoadOrRankCountFallsBackSafely) {
  EXPECT_EQ(choose_mpi_wait(node(2, 2, -1)).export_value, "");  // no /proc/stat: Open MPI decides
  EXPECT_EQ(choose_mpi_wait(node(3, 2, -1)).wait, "yield");
  MpiWaitInputs one;  // a singleton: 1 rank, its count unknown
  one.threads.hardware_cpus = 2;
  one.busy_cores = 1.6;
  EXPECT_EQ(choose_mpi_wait(one).reason, "node shared: 1.60 cores busy + 1 rank on 2 cores");
}

}  // namespace
}  // namespace trackcosim::runtime
