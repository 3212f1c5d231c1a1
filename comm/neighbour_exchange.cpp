#include "comm/neighbour_exchange.h"

#include <chrono>
#include <climits>
#include <ctime>
#include <stdexcept>
#include <string>

namespace trackcosim::comm {
namespace {

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

}  // namespace

NeighbourExchange::NeighbourExchange(const RankGroup& group, std::vector<int> neighbours)
    : comm_(group.handle()), neighbours_(std::move(neighbours)) {
  requests_.reserve(2 * neighbours_.size());
}

void NeighbourExchange::exchange_bytes(const std::vector<std::span<const std::byte>>& out,
                                       const std::vector<std::span<std::byte>>& in, ExchangeTag tag) {
  const std::size_t n = neighbours_.size();
  if (out.size() != n || in.size() != n)
    throw std::logic_error("neighbour exchange: " + std::to_string(out.size()) + " outgoing and " +
                           std::to_string(in.size()) + " incoming buffers for " + std::to_string(n) + " neighbours");
  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = thread_cpu_seconds();
  requests_.assign(2 * n, MPI_REQUEST_NULL);
  for (std::size_t k = 0; k < n; ++k) {
    if (in[k].size() > INT_MAX || out[k].size() > INT_MAX)
      throw std::length_error("neighbour exchange: a message over 2 GiB to/from rank " + std::to_string(neighbours_[k]));
    MPI_Irecv(in[k].data(), static_cast<int>(in[k].size()), MPI_BYTE, neighbours_[k], static_cast<int>(tag), comm_,
              &requests_[k]);
  }
  for (std::size_t k = 0; k < n; ++k)
    MPI_Isend(out[k].data(), static_cast<int>(out[k].size()), MPI_BYTE, neighbours_[k], static_cast<int>(tag), comm_,
              &requests_[n + k]);
  MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  if (n > 0) ++traffic_.exchanges;  // a rank without neighbours sends nothing
  for (const auto& o : out) traffic_.bytes += o.size();
  traffic_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  traffic_.cpu_seconds += thread_cpu_seconds() - cpu_start;
}

void NeighbourExchange::exchange_counts(const std::vector<std::uint64_t>& out, std::vector<std::uint64_t>& in) {
  std::vector<std::span<const std::byte>> o;
  std::vector<std::span<std::byte>> i;
  in.resize(neighbours_.size());
  for (std::size_t k = 0; k < neighbours_.size(); ++k) {
    o.push_back(std::as_bytes(std::span<const std::uint64_t>(&out[k], 1)));
    i.push_back(std::as_writable_bytes(std::span<std::uint64_t>(&in[k], 1)));
  }
  exchange_bytes(o, i, ExchangeTag::Size);
}

}  // namespace trackcosim::comm
