// Where do the ranks of a job run, and can they talk? Each rank prints one line
//   probe rank=R host=H netns=net:[I] addresses=A,B
// (its hostname, its network namespace and its IPv4 addresses, from `ip -o -4 addr`), then every
// rank sends 1 MiB to the next one in a ring (above any eager limit: the bytes really cross the
// transport) and all sum their ranks; rank 0 ends with `probe ranks=N hosts=H netns=M ring=ok`.
// The multi-host test (netns_cluster_run.sh) checks that a job spanning two namespace hosts has
// ranks in two network namespaces with different addresses.
#include <mpi.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace {

std::string command_output(const char* command) {
  std::string text;
  if (FILE* pipe = popen(command, "r")) {
    std::array<char, 256> buffer{};
    while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr) text += buffer.data();
    pclose(pipe);
  }
  while (!text.empty() && (text.back() == '\n' || text.back() == ',')) text.pop_back();
  return text;
}

std::string net_namespace() {
  std::array<char, 64> link{};
  const ssize_t n = readlink("/proc/self/ns/net", link.data(), link.size() - 1);
  return n > 0 ? std::string(link.data(), static_cast<std::size_t>(n)) : "unknown";
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  std::array<char, 256> host{};
  gethostname(host.data(), host.size() - 1);
  const std::string ns = net_namespace();
  const std::string addresses =
      command_output("ip -o -4 addr show scope global 2>/dev/null | awk '{print $4}' | tr '\\n' ','");
  std::printf("probe rank=%d host=%s netns=%s addresses=%s\n", rank, host.data(), ns.c_str(),
              addresses.empty() ? "none" : addresses.c_str());
  std::fflush(stdout);

  // Every rank's host and namespace to rank 0, as fixed-size strings.
  constexpr int kField = 64;
  std::vector<char> mine(2 * kField, '\0'), all(static_cast<std::size_t>(size) * 2 * kField, '\0');
  std::strncpy(mine.data(), host.data(), kField - 1);
  std::strncpy(mine.data() + kField, ns.c_str(), kField - 1);
  MPI_Gather(mine.data(), 2 * kField, MPI_CHAR, all.data(), 2 * kField, MPI_CHAR, 0, MPI_COMM_WORLD);

  const int bytes = 1 << 20;
  std::vector<unsigned char> out(bytes, static_cast<unsigned char>(rank)), in(bytes, 0);
  const int next = (rank + 1) % size, previous = (rank + size - 1) % size;
  MPI_Sendrecv(out.data(), bytes, MPI_BYTE, next, 7, in.data(), bytes, MPI_BYTE, previous, 7, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  int ring_ok = in.front() == static_cast<unsigned char>(previous) && in.back() == static_cast<unsigned char>(previous);
  int all_ok = 0, rank_sum = 0;
  MPI_Allreduce(&ring_ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&rank, &rank_sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  all_ok = all_ok && rank_sum == size * (size - 1) / 2;

  if (rank == 0) {
    std::set<std::string> hosts, namespaces;
    for (int r = 0; r < size; ++r) {
      hosts.insert(std::string(&all[static_cast<std::size_t>(r) * 2 * kField]));
      namespaces.insert(std::string(&all[static_cast<std::size_t>(r) * 2 * kField + kField]));
    }
    std::printf("probe ranks=%d hosts=%zu netns=%zu ring=%s\n", size, hosts.size(), namespaces.size(),
                all_ok ? "ok" : "wrong");
  }
  MPI_Finalize();
  return all_ok ? 0 : 1;
}
