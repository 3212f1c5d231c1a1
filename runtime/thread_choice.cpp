#include "runtime/thread_choice.h"

#include <algorithm>
#include <charconv>
#include <string_view>
#include <vector>

namespace trackcosim::runtime {
namespace {

/// A whole positive decimal number, else 0 (a malformed variable counts as unset).
int positive(std::string_view text) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() && value > 0 ? value : 0;
}

int positive(const std::optional<std::string>& text) { return text ? positive(std::string_view(*text)) : 0; }

/// SLURM_TASKS_PER_NODE's entry for node `node`: "2(x3),1" means 2 tasks on each of three
/// nodes, then 1. 0 when the list is malformed or shorter.
int tasks_on_node(std::string_view list, int node) {
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    std::string_view item = list.substr(0, comma);
    int repeat = 1;
    if (const std::size_t paren = item.find("(x"); paren != std::string_view::npos) {
      if (!item.ends_with(')')) return 0;
      repeat = positive(item.substr(paren + 2, item.size() - paren - 3));
      item = item.substr(0, paren);
    }
    const int tasks = positive(item);
    if (tasks == 0 || repeat == 0) return 0;
    if (node < repeat) return tasks;
    node -= repeat;
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
  return 0;
}

struct RanksOnNode {
  int count = 0;
  std::string from;
};

RanksOnNode ranks_on_node(const ThreadInputs& in) {
  if (const int n = positive(in.ompi_local_size)) return {n, "OMPI_COMM_WORLD_LOCAL_SIZE"};
  if (const int n = positive(in.slurm_ntasks_per_node)) return {n, "SLURM_NTASKS_PER_NODE"};
  if (in.slurm_tasks_per_node) {
    const int node = positive(in.slurm_nodeid);  // 0 when unset or "0": the first node
    if (const int n = tasks_on_node(*in.slurm_tasks_per_node, node)) return {n, "SLURM_TASKS_PER_NODE"};
  }
  if (in.mpi_ranks_on_node > 0) return {in.mpi_ranks_on_node, "MPI"};
  return {};
}

}  // namespace

ThreadChoice choose_threads(const ThreadInputs& in) {
  ThreadChoice c;
  c.cores = std::max(1, in.hardware_cpus);
  const RanksOnNode ranks = ranks_on_node(in);
  c.ranks_on_node = ranks.count;
  c.ranks_from = ranks.from;
  c.oversubscribed = ranks.count > c.cores;
  const auto pick = [&c](int threads, const char* source) {
    c.threads = std::max(1, threads);
    c.source = source;
    return c;
  };
  // A user's setting is kept even when it oversubscribes: they may know better (a test of threads).
  if (in.explicit_threads > 0) return pick(in.explicit_threads, "explicit");
  if (in.omp_num_threads) {
    const std::string_view first = std::string_view(*in.omp_num_threads).substr(0, in.omp_num_threads->find(','));
    if (const int n = positive(first)) return pick(n, "OMP_NUM_THREADS");
  }
  if (c.oversubscribed) return pick(1, "local ranks");
  if (in.affinity_cpus > 0 && in.affinity_cpus < c.cores) return pick(in.affinity_cpus, "affinity");
  if (const int n = positive(in.slurm_cpus_per_task)) return pick(std::min(n, c.cores), "slurm cpus per task");
  if (ranks.count > 1) return pick(c.cores / ranks.count, "local ranks");
  return pick(c.cores, "hardware");
}

std::string oversubscription_note(const ThreadChoice& c, bool wait_policy_set) {
  if (!c.oversubscribed) return {};
  std::string note = std::to_string(c.ranks_on_node) + " ranks on this node's " + std::to_string(c.cores) +
                     " cores (" + c.ranks_from + "): oversubscribed; ";
  note += c.source == "explicit" || c.source == "OMP_NUM_THREADS"
              ? "each rank keeps the " + std::to_string(c.threads) + " threads of " +
                    (c.source == "explicit" ? std::string("--threads") : c.source)
              : std::string("each rank runs 1 OpenMP thread");
  if (!wait_policy_set) note += "; set OMP_WAIT_POLICY=passive so that waiting threads sleep instead of spinning";
  return note;
}

}  // namespace trackcosim::runtime
