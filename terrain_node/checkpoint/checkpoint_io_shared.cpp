// The checkpoint file shared by the ranks of a group: collective MPI-IO (comm/collective_file.h).

#include <stdexcept>

#include "comm/collective_file.h"
#include "terrain_node/checkpoint/checkpoint_slices.h"

namespace trackcosim::terrain {
namespace {

class SharedIo final : public CheckpointIo {
 public:
  SharedIo(const comm::RankGroup& group, const std::filesystem::path& path, bool write)
      : group_(group), file_(open(group, path, write)) {}
  int rank() const override { return group_.rank(); }
  int ranks() const override { return group_.size(); }
  std::uint64_t sum(std::uint64_t value) override { return group_.sum(value); }
  std::uint64_t exclusive_sum(std::uint64_t value) override { return comm::exclusive_sum(group_, value); }
  std::uint64_t exclusive_max(std::uint64_t value) override { return comm::exclusive_max(group_, value); }
  std::uint64_t xor_all(std::uint64_t value) override { return comm::xor_all(group_, value); }
  std::string first_error(const std::string& mine) override { return comm::first_error(group_, mine); }
  void write_at_all(std::uint64_t offset, std::string_view bytes) override {
    file_.write_at_all(offset, std::span<const char>(bytes.data(), bytes.size()));
  }
  std::string read_at_all(std::uint64_t offset, std::uint64_t n) override {
    std::string bytes = file_.read_at_all(offset, n);
    file_.check();
    return bytes;
  }
  std::uint64_t size() override { return file_.size(); }
  void commit() override { file_.commit(); }

 private:
  static comm::CollectiveFile open(const comm::RankGroup& group, const std::filesystem::path& path, bool write) {
    try {
      return comm::CollectiveFile(group, path, write ? comm::CollectiveFile::Mode::Write : comm::CollectiveFile::Mode::Read);
    } catch (const std::runtime_error& e) {
      throw std::runtime_error("checkpoint " + std::string(e.what()));
    }
  }
  comm::RankGroup group_;
  comm::CollectiveFile file_;
};

}  // namespace

std::unique_ptr<CheckpointIo> open_checkpoint_shared(const comm::RankGroup& group, const std::filesystem::path& path,
                                                     bool write) {
  return std::make_unique<SharedIo>(group, path, write);
}

}  // namespace trackcosim::terrain
