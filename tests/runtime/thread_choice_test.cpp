// choose_threads (runtime/thread_choice.h): the threads per rank from the launchers' variables, the
// affinity and the node's cores; and the note an oversubscribed run prints.

#include "runtime/thread_choice.h"

#include <gtest/gtest.h>

namespace trackcosim::runtime {
namespace {

TEST(ThreadChoice, AnExplicitSettingWinsOverEverything) {
  ThreadInputs in;
  in.explicit_threads = 6;
  in.omp_num_threads = "3";
  in.ompi_local_size = "3";
  in.affinity_cpus = 1;
  in.hardware_cpus = 2;
  const ThreadChoice c = choose_threads(in);
  EXPECT_EQ(c.threads, 6);
  EXPECT_EQ(c.source, "explicit");
  EXPECT_TRUE(c.oversubscribed);  // still reported: the user may not know
}

TEST(ThreadChoice, OmpNumThreadsWinsOverTheDefaultAndItsFirstLevelCounts) {
  ThreadInputs in;
  in.omp_num_threads = "3,2";
  in.hardware_cpus = 16;
  const ThreadChoice c = choose_threads(in);
  EXPECT_EQ(c.threads, 3);
  EXPECT_EQ(c.source, "OMP_NUM_THREADS");
}

TEST(ThreadChoice, ThreeOpenMpiRanksOnTwoCoresRunOneThreadEachAndAreOversubscribed) {
  ThreadInputs in;
  in.ompi_local_size = "3";
  in.affinity_cpus = 2;
  in.hardware_cpus = 2;
  const ThreadChoice c = choose_threads(in);
  EXPECT_EQ(c.threads, 1);
  EXPECT_EQ(c.source, "local ranks");
  EXPECT_EQ(c.ranks_on_node, 3);
  EXPECT_EQ(c.ranks_from, "OMPI_COMM_WORLD_LOCAL_SIZE");
  EXPECT_TRUE(c.oversubscribed);
}

TEST(ThreadChoice, ARankBoundToFourOfSixteenCoresRunsFour) {
  ThreadInputs in;
  in.affinity_cpus = 4;
  in.hardware_cpus = 16;
  in.ompi_local_size = "2";  // the binding is more precise than the division (8)
  const ThreadChoice c = choose_threads(in);
  EXPECT_EQ(c.threads, 4);
  EXPECT_EQ(c.source, "affinity");
  EXPECT_FALSE(c.oversubscribed);
}

TEST(ThreadChoice, SlurmCpusPerTaskWinsOverTheDivision) {
  ThreadInputs in;
  in.slurm_cpus_per_task = "3";
  in.slurm_ntasks_per_node = "4";  // 16 / 4 would give 4
  in.affinity_cpus = 16;
  in.hardware_cpus = 16;
  const ThreadChoice c = choose_threads(in);
  EXPECT_EQ(c.threads, 3);
  EXPECT_EQ(c.source, "slurm cpus per task");
  EXPECT_EQ(c.ranks_on_node, 4);
}

TEST(ThreadChoice, TheNodesCoresAreDividedAmongItsRanks) {
  ThreadInputs in;
  in.hardware_cpus = 16;
  in.slurm_tasks_per_node = "2(x3),5";  // this is node 3: 5 tasks
  in.slurm_nodeid = "3";
  ThreadChoice c = choose_threads(in);
  EXPECT_EQ(c.threads, 3);
  EXPECT_EQ(c.source, "local ranks");
  EXPECT_EQ(c.ranks_from, "SLURM_TASKS_PER_NODE");

  in = ThreadInputs{};
  in.hardware_cpus = 16;
  in.mpi_ranks_on_node = 3;  // what MPI says when no launcher variable does
  c = choose_threads(in);
  EXPECT_EQ(c.threads, 5);
  EXPECT_EQ(c.ranks_from, "MPI");
}

TEST(ThreadChoice, NoInformationMeansTheNodesCoresForTheOneRank) {
  ThreadInputs in;
  in.hardware_cpus = 8;
  const ThreadChoice c = choose_threads(in);
  EXPECT_EQ(c.threads, 8);
  EXPECT_EQ(c.source, "hardware");
  EXPECT_EQ(c.ranks_on_node, 0);
  EXPECT_FALSE(c.oversubscribed);
}

TEST(ThreadChoice, MalformedVariablesCountAsUnset) {
  ThreadInputs in;
  in.hardware_cpus = 4;
  in.omp_num_threads = "many";
  in.ompi_local_size = "0";
  in.slurm_cpus_per_task = "-2";
  in.slurm_tasks_per_node = "2(x";
  const ThreadChoice c = choose_threads(in);
  EXPECT_EQ(c.threads, 4);
  EXPECT_EQ(c.source, "hardware");
}

TEST(ThreadChoice, TheOversubscriptionNoteNamesTheCountsTheRemedyAndTheWaitPolicy) {
  ThreadInputs in;
  in.ompi_local_size = "3";
  in.hardware_cpus = 2;
  const ThreadChoice c = choose_threads(in);
  const std::string note = oversubscription_note(c, false);
  EXPECT_NE(note.find("3 ranks on this node's 2 cores"), std::string::npos) << note;
  EXPECT_NE(note.find("1 OpenMP thread"), std::string::npos) << note;
  EXPECT_NE(note.find("OMP_WAIT_POLICY=passive"), std::string::npos) << note;
  EXPECT_EQ(oversubscription_note(c, true).find("OMP_WAIT_POLICY"), std::string::npos);

  in.ompi_local_size = "2";
  EXPECT_EQ(oversubscription_note(choose_threads(in), false), "");
}

}  // namespace
}  // namespace trackcosim::runtime
