#include "runtime/mpi_wait_environment.h"

#include <cstdlib>
#include <chrono>
#include <fstream>
#include <thread>
#include <string>

#include "runtime/thread_environment.h"

namespace trackcosim::runtime {
namespace {

std::optional<MpiWaitChoice> g_prepared;  ///< one choice per process: Open MPI reads it once

/// The node's busy and total CPU time so far, in clock ticks (the first line of /proc/stat).
struct CpuTicks {
  double busy = 0, total = 0;
};

std::optional<CpuTicks> read_cpu_ticks() {
  std::ifstream file("/proc/stat");
  std::string cpu;
  double user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
  if (!(file >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal) || cpu != "cpu")
    return std::nullopt;
  const double busy = user + nice + system + irq + softirq + steal;
  return CpuTicks{busy, busy + idle + iowait};
}

/// Cores kept busy over the next 0.2 s, while this process sleeps: other work, since this job's
/// ranks are all still starting. < 0 when /proc/stat cannot be read.
double busy_cores(int cores) {
  const std::optional<CpuTicks> before = read_cpu_ticks();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const std::optional<CpuTicks> after = read_cpu_ticks();
  if (!before || !after || after->total <= before->total) return -1;
  return cores * (after->busy - before->busy) / (after->total - before->total);
}

}  // namespace

MpiWaitInputs read_mpi_wait_inputs() {
  MpiWaitInputs in;
  in.requested = environment_variable("TRACKCOSIM_MPI_WAIT");
  in.ompi_yield = environment_variable("OMPI_MCA_mpi_yield_when_idle");
  in.nap = environment_variable("TRACKCOSIM_MPI_NAP_US");
  in.threads = read_thread_inputs(0, 0);
  if (in.requested.value_or("auto") == "auto" && !in.ompi_yield) in.busy_cores = busy_cores(in.threads.hardware_cpus);
  return in;
}

const MpiWaitChoice& prepare_mpi_waits() {
  if (!g_prepared) {
    g_prepared = choose_mpi_wait(read_mpi_wait_inputs());
    if (!g_prepared->export_value.empty()) setenv("OMPI_MCA_mpi_yield_when_idle", g_prepared->export_value.c_str(), 1);
    // comm/idle_nap.h reads it when MPI starts; set either way (0: no nap), so that a value the
    // user gave for naps does not make ranks that poll or yield nap.
    setenv("TRACKCOSIM_MPI_NAP_US", std::to_string(g_prepared->nap_microseconds).c_str(), 1);
  }
  return *g_prepared;
}

std::optional<MpiWaitChoice> prepared_mpi_wait() { return g_prepared; }

}  // namespace trackcosim::runtime
