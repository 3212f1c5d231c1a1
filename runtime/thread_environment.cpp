#include "runtime/thread_environment.h"

#include <sched.h>
#include <unistd.h>

#include <cstdlib>

namespace trackcosim::runtime {
namespace {

int affinity_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  return sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
}

}  // namespace

std::optional<std::string> environment_variable(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::optional<std::string>(value) : std::nullopt;
}

ThreadInputs read_thread_inputs(int explicit_threads, int mpi_ranks_on_node) {
  ThreadInputs in;
  in.explicit_threads = explicit_threads;
  in.omp_num_threads = environment_variable("OMP_NUM_THREADS");
  in.ompi_local_size = environment_variable("OMPI_COMM_WORLD_LOCAL_SIZE");
  in.slurm_cpus_per_task = environment_variable("SLURM_CPUS_PER_TASK");
  in.slurm_ntasks_per_node = environment_variable("SLURM_NTASKS_PER_NODE");
  in.slurm_tasks_per_node = environment_variable("SLURM_TASKS_PER_NODE");
  in.slurm_nodeid = environment_variable("SLURM_NODEID");
  in.mpi_ranks_on_node = mpi_ranks_on_node;
  in.affinity_cpus = affinity_cpus();
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  in.hardware_cpus = online > 0 ? static_cast<int>(online) : 1;
  return in;
}

bool omp_wait_policy_set() { return std::getenv("OMP_WAIT_POLICY") != nullptr; }

}  // namespace trackcosim::runtime
