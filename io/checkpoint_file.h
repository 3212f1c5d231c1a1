#pragma once
// What every checkpoint file of trackcosim shares (the terrain's, terrain_node/checkpoint/terrain_checkpoint.h, and
// the vehicle's, vehicle_node/coupled/vehicle_checkpoint.h): it is written to "<path>.tmp", fsync'ed
// and renamed into place, so a job killed mid-write never leaves a half-written file under the
// real name, and it ends with a 64-bit FNV-1a checksum of every byte before it, so a damaged file
// is refused instead of restarting from garbage.

#include <cstdint>
#include <filesystem>
#include <string>
#include <type_traits>
#include <vector>

namespace trackcosim::io {

/// 64-bit FNV-1a, the checksum at the end of every checkpoint file.
class Fnv1a {
 public:
  void add(const char* data, std::size_t n) {
    std::uint64_t h = hash_;
    for (std::size_t i = 0; i < n; ++i) h = (h ^ static_cast<unsigned char>(data[i])) * 1099511628211ull;
    hash_ = h;
  }
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 14695981039346656037ull;
};

/// "<path>.tmp", open for writing; every byte passes through the checksum. commit() appends the
/// checksum and renames the file into place; the destructor removes it unless commit() ran.
/// Errors throw OutputError "cannot write checkpoint <path>: <what>: <system reason>".
class AtomicCheckpointFile {
 public:
  /// What commit() appends: the FNV-1a checksum of every byte put, or nothing (the caller writes
  /// its own, as the terrain checkpoint's version 2 does; the bytes are then not hashed here).
  enum class Seal { Checksum, AsWritten };
  explicit AtomicCheckpointFile(const std::filesystem::path& path, Seal seal = Seal::Checksum);
  AtomicCheckpointFile(const AtomicCheckpointFile&) = delete;
  AtomicCheckpointFile& operator=(const AtomicCheckpointFile&) = delete;
  ~AtomicCheckpointFile();

  void put(const char* data, std::size_t n);
  template <class T>
  void put_value(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    put(reinterpret_cast<const char*>(&v), sizeof v);
  }
  template <class T>
  void put_array(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    put(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  }
  /// Appends the checksum (Seal::Checksum), fsyncs, renames over the real name, then fsyncs the
  /// folder so the rename itself survives a crash (best effort: some file systems refuse a
  /// folder fsync).
  void commit();

 private:
  static constexpr std::size_t kBufferBytes = std::size_t(1) << 20;
  void flush();
  void write_all(const char* data, std::size_t n);
  [[noreturn]] void fail(const std::string& what, int error) const;

  std::filesystem::path path_, tmp_;
  int fd_ = -1;
  bool committed_ = false;
  std::vector<char> buffer_;
  Seal seal_;
  Fnv1a hash_;
};

/// The whole file; throws std::runtime_error "checkpoint <path>: cannot open|read: <reason>".
std::string read_checkpoint_bytes(const std::filesystem::path& path);

/// The checksum stored in the last 8 bytes of `bytes` and the one computed over the rest
/// (bytes.size() >= 8).
struct Checksums {
  std::uint64_t stored = 0, computed = 0;
  bool match() const { return stored == computed; }
};
Checksums checkpoint_checksums(const std::string& bytes);

/// The system's text for an errno value.
std::string system_reason(int error);

}  // namespace trackcosim::io
