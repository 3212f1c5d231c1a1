// The checkpoint file for this process alone (no MPI): what tests, tools and benchmarks use to
// write or read a whole checkpoint. One rank writes its slices in file order, so the atomic
// sequential file of io/checkpoint_file.h serves.

#include <optional>
#include <stdexcept>

#include "io/checkpoint_file.h"
#include "terrain_node/checkpoint/checkpoint_slices.h"

namespace trackcosim::terrain {
namespace {

class AloneIo final : public CheckpointIo {
 public:
  AloneIo(const std::filesystem::path& path, bool write) {
    if (write)
      file_.emplace(path, io::AtomicCheckpointFile::Seal::AsWritten);
    else
      bytes_ = io::read_checkpoint_bytes(path);
  }
  int rank() const override { return 0; }
  int ranks() const override { return 1; }
  std::uint64_t sum(std::uint64_t value) override { return value; }
  std::uint64_t exclusive_sum(std::uint64_t) override { return 0; }
  std::uint64_t exclusive_max(std::uint64_t) override { return 0; }
  std::uint64_t xor_all(std::uint64_t value) override { return value; }
  std::string first_error(const std::string& mine) override { return mine; }
  void write_at_all(std::uint64_t offset, std::string_view bytes) override {
    if (offset != written_ && !bytes.empty())
      throw std::logic_error("checkpoint writer: one rank writes in file order (offset " + std::to_string(offset) +
                             ", " + std::to_string(written_) + " bytes written)");
    file_->put(bytes.data(), bytes.size());
    written_ += bytes.size();
  }
  std::string read_at_all(std::uint64_t offset, std::uint64_t n) override {
    return offset >= bytes_.size() ? std::string() : bytes_.substr(offset, n);
  }
  std::uint64_t size() override { return bytes_.size(); }
  void commit() override { file_->commit(); }

 private:
  std::optional<io::AtomicCheckpointFile> file_;
  std::uint64_t written_ = 0;
  std::string bytes_;
};

}  // namespace

std::unique_ptr<CheckpointIo> open_checkpoint_alone(const std::filesystem::path& path, bool write) {
  return std::make_unique<AloneIo>(path, write);
}

}  // namespace trackcosim::terrain
