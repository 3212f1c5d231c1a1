// The atomic, checksummed file under every checkpoint (io/checkpoint_file.h).

#include "io/checkpoint_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "io/output_file.h"

namespace trackcosim::io {

namespace fs = std::filesystem;

std::string system_reason(int error) { return std::generic_category().message(error); }

AtomicCheckpointFile::AtomicCheckpointFile(const fs::path& path, Seal seal)
    : path_(path), tmp_(path.string() + ".tmp"), seal_(seal) {
  fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    const int error = errno;
    if (!path_.parent_path().empty() && !fs::is_directory(path_.parent_path()))
      throw OutputError("cannot write checkpoint " + path_.string() + ": folder " + path_.parent_path().string() +
                        " does not exist");
    fail("cannot create " + tmp_.string(), error);
  }
  buffer_.reserve(kBufferBytes);
}

AtomicCheckpointFile::~AtomicCheckpointFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) ::unlink(tmp_.c_str());
}

void AtomicCheckpointFile::put(const char* data, std::size_t n) {
  if (seal_ == Seal::Checksum) hash_.add(data, n);
  if (n > kBufferBytes - buffer_.size()) flush();
  if (n >= kBufferBytes) return write_all(data, n);
  buffer_.insert(buffer_.end(), data, data + n);
}

void AtomicCheckpointFile::commit() {
  if (seal_ == Seal::Checksum) {
    const std::uint64_t checksum = hash_.value();
    buffer_.insert(buffer_.end(), reinterpret_cast<const char*>(&checksum),
                   reinterpret_cast<const char*>(&checksum) + sizeof checksum);
  }
  flush();
  if (::fsync(fd_) != 0) fail("fsync of " + tmp_.string() + " failed", errno);
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) fail("closing " + tmp_.string() + " failed", errno);
  if (::rename(tmp_.c_str(), path_.c_str()) != 0) fail("cannot rename " + tmp_.string() + " into place", errno);
  committed_ = true;
  const fs::path folder = path_.parent_path().empty() ? fs::path(".") : path_.parent_path();
  if (const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

void AtomicCheckpointFile::flush() {
  write_all(buffer_.data(), buffer_.size());
  buffer_.clear();
}

void AtomicCheckpointFile::write_all(const char* data, std::size_t n) {
  while (n > 0) {
    const ssize_t written = ::write(fd_, data, n);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) fail("writing " + tmp_.string() + " failed", written < 0 ? errno : ENOSPC);
    data += written, n -= static_cast<std::size_t>(written);
  }
}

void AtomicCheckpointFile::fail(const std::string& what, int error) const {
  throw OutputError("cannot write checkpoint " + path_.string() + ": " + what + ": " + system_reason(error));
}

std::string read_checkpoint_bytes(const fs::path& path) {
  auto refuse = [&](const std::string& problem) {
    throw std::runtime_error("checkpoint " + path.string() + ": " + problem);
  };
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) refuse("cannot open: " + system_reason(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat info {};
  if (::fstat(fd, &info) != 0) refuse("cannot read: " + system_reason(errno));
  std::string bytes(static_cast<std::size_t>(info.st_size), '\0');
  std::size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) refuse("cannot read: " + system_reason(errno));
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  bytes.resize(got);
  return bytes;
}

Checksums checkpoint_checksums(const std::string& bytes) {
  Checksums c;
  const std::size_t body = bytes.size() - sizeof c.stored;
  Fnv1a hash;
  hash.add(bytes.data(), body);
  c.computed = hash.value();
  std::memcpy(&c.stored, bytes.data() + body, sizeof c.stored);
  return c;
}

}  // namespace trackcosim::io
