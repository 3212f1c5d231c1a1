#include "terrain_node/distributed/rank_threads.h"

#include <omp.h>

#include <cstdio>

#include "comm/mpi_session.h"
#include "comm/node_ranks.h"
#include "runtime/mpi_wait_environment.h"
#include "runtime/thread_environment.h"

namespace trackcosim::terrain {

runtime::ThreadChoice set_rank_threads(int explicit_threads, const comm::RankGroup& group) {
  // Every rank asks MPI, whatever the environment says, so that the collective never depends
  // on per-rank variables.
  const int mpi_ranks = comm::ranks_on_this_node(group);
  const runtime::ThreadChoice choice = runtime::choose_threads(runtime::read_thread_inputs(explicit_threads, mpi_ranks));
  omp_set_num_threads(choice.threads);
  const std::string note = runtime::oversubscription_note(choice, runtime::omp_wait_policy_set());
  if (group.leader() && !note.empty()) std::fprintf(stderr, "terrain_node: warning: %s\n", note.c_str());
  // A build on the one-process stub has no rank that waits: no note on how they wait.
  const std::optional<runtime::MpiWaitChoice> wait =
      comm::mpi_is_stub() ? std::nullopt : runtime::prepared_mpi_wait();
  const std::string wait_note = wait ? runtime::mpi_wait_note(*wait) : std::string();
  if (group.leader() && !wait_note.empty()) std::fprintf(stderr, "terrain_node: %s\n", wait_note.c_str());
  return choice;
}

}  // namespace trackcosim::terrain
