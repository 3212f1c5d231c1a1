#pragma once
// How many OpenMP threads a rank runs: one pure decision, so that a test can feed it any
// launcher's environment. Why it is needed: OpenMP's own default is every core of the node in
// every rank, so N ranks on a node start N x cores threads that spin against each other and
// against MPI's polling (issue 19: 3 ranks on a 2-core machine did not finish in 600 s where
// 1 rank took 17 s). The order, first that applies:
//   explicit         --threads N
//   OMP_NUM_THREADS  its first value (a list "4,2" names nested levels; we run one)
//   local ranks      1, when more ranks share the node than it has cores (oversubscribed)
//   affinity         the CPUs the launcher bound this rank to, when fewer than the node's
//   slurm cpus per task  SLURM_CPUS_PER_TASK (what Slurm allotted to each task)
//   local ranks      the node's cores / the ranks on the node (at least 1)
//   hardware         the node's cores (one rank, or nothing known)
// The ranks on the node come from Open MPI (OMPI_COMM_WORLD_LOCAL_SIZE), Slurm
// (SLURM_NTASKS_PER_NODE, else SLURM_TASKS_PER_NODE at SLURM_NODEID), else MPI itself
// (comm::ranks_on_this_node: the ranks of this program sharing the node's memory).

#include <optional>
#include <string>

namespace trackcosim::runtime {

/// The environment and machine as choose_threads sees them; read_thread_inputs fills it.
struct ThreadInputs {
  int explicit_threads = 0;  ///< --threads; 0 when not given
  std::optional<std::string> omp_num_threads;
  std::optional<std::string> ompi_local_size;        ///< OMPI_COMM_WORLD_LOCAL_SIZE
  std::optional<std::string> slurm_cpus_per_task;    ///< SLURM_CPUS_PER_TASK
  std::optional<std::string> slurm_ntasks_per_node;  ///< SLURM_NTASKS_PER_NODE
  std::optional<std::string> slurm_tasks_per_node;   ///< SLURM_TASKS_PER_NODE, e.g. "2(x3),1"
  std::optional<std::string> slurm_nodeid;           ///< SLURM_NODEID: this node's place in that list
  int mpi_ranks_on_node = 0;  ///< from MPI; 0 unknown
  int affinity_cpus = 0;      ///< sched_getaffinity's CPU count; 0 unknown
  int hardware_cpus = 1;      ///< the node's online CPUs
};

struct ThreadChoice {
  int threads = 1;
  /// How: "explicit", "OMP_NUM_THREADS", "affinity", "slurm cpus per task", "local ranks", "hardware".
  std::string source;
  int ranks_on_node = 0;   ///< 0 unknown
  std::string ranks_from;  ///< where ranks_on_node came from (an environment variable or "MPI"); empty when unknown
  int cores = 1;           ///< the node's CPUs
  bool oversubscribed = false;  ///< ranks_on_node > cores
};

ThreadChoice choose_threads(const ThreadInputs& inputs);

/// The one line an oversubscribed run prints at start (empty when not oversubscribed): the
/// counts, what the rank does about it, and the wait-policy advice when OMP_WAIT_POLICY is unset.
std::string oversubscription_note(const ThreadChoice& choice, bool wait_policy_set);

}  // namespace trackcosim::runtime
