#include "runtime/mpi_wait_choice.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <stdexcept>

namespace trackcosim::runtime {
namespace {

/// Less than this much of a core's worth of other work does not count as sharing: a desktop's
/// background, a launcher starting the ranks.
constexpr double kSharedSlack = 0.5;

MpiWaitChoice yield_because(std::string reason) { return {"1", 0, "yield", std::move(reason), false}; }

/// TRACKCOSIM_MPI_NAP_US, else kMpiNapMicroseconds.
int nap_microseconds(const std::optional<std::string>& text) {
  if (!text) return kMpiNapMicroseconds;
  int value = 0;
  const auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (error != std::errc() || end != text->data() + text->size() || value < 1 || value > 100000)
    throw std::invalid_argument("TRACKCOSIM_MPI_NAP_US=" + *text + ": expected whole microseconds from 1 to 100000");
  return value;
}

MpiWaitChoice nap_because(const MpiWaitInputs& in, std::string reason, bool noteworthy) {
  return {"1", nap_microseconds(in.nap), "nap", std::move(reason), noteworthy};
}

std::string ranks_text(const ThreadChoice& node) {
  return node.ranks_on_node > 0 ? std::to_string(node.ranks_on_node) + " ranks" : std::string("1 rank");
}

}  // namespace

MpiWaitChoice choose_mpi_wait(const MpiWaitInputs& in) {
  if (in.ompi_yield) return {"", 0, *in.ompi_yield == "0" ? "spin" : "yield", "OMPI_MCA_mpi_yield_when_idle", false};
  const std::string requested = in.requested.value_or("auto");
  if (requested == "yield") return yield_because("TRACKCOSIM_MPI_WAIT");
  if (requested == "nap") return nap_because(in, "TRACKCOSIM_MPI_WAIT", false);
  if (requested == "spin") return {"0", 0, "spin", "TRACKCOSIM_MPI_WAIT", false};
  if (requested != "auto")
    throw std::invalid_argument("TRACKCOSIM_MPI_WAIT=" + requested + ": expected spin, yield, nap or auto");

  const ThreadChoice node = choose_threads(in.threads);
  const int ranks = std::max(1, node.ranks_on_node);
  // Other work first: then a yield would hand the core to it, oversubscribed or not.
  const double other_work = in.busy_cores;
  if (other_work >= kSharedSlack && other_work + ranks >= node.cores + kSharedSlack) {
    char busy[32];
    std::snprintf(busy, sizeof busy, "%.2f", other_work);
    return nap_because(in, "node shared: " + std::string(busy) + " cores busy + " + ranks_text(node) + " on " +
                           std::to_string(node.cores) + " cores",
                       true);
  }
  if (node.oversubscribed)
    return yield_because("oversubscribed: " + ranks_text(node) + " on " + std::to_string(node.cores) + " cores");
  return {"", 0, "Open MPI's default", "a core for each rank", false};
}

std::string mpi_wait_note(const MpiWaitChoice& choice) {
  if (!choice.noteworthy) return {};
  return choice.reason + ": waiting MPI ranks nap between polls (TRACKCOSIM_MPI_WAIT=spin keeps them polling; "
                         "docs/domain-decomposition.md, \"On a busy node\")";
}

}  // namespace trackcosim::runtime
