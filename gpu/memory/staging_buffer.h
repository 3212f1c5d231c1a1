#pragma once
// Host memory that the distributed solver's messages leave and enter the device through, every
// iteration. In the CUDA build it is page-locked (cudaMallocHost): a copy to or from it is one
// DMA transfer, where pageable memory goes through a driver bounce buffer. In the CPU build it is
// plain host memory. Grows to the largest message and keeps its memory (a step's messages are
// the same size every iteration).
// Only .cu files include this header.

#include <cstddef>

namespace trackcosim::gpu::detail {

void* allocate_staging(std::size_t bytes);
void free_staging(void* block);

template <class T>
class StagingBuffer {
 public:
  StagingBuffer() = default;
  ~StagingBuffer() { free_staging(data_); }
  StagingBuffer(const StagingBuffer&) = delete;
  StagingBuffer& operator=(const StagingBuffer&) = delete;

  /// n elements; the contents are undefined after a growth.
  void resize(std::size_t n) {
    if (n > capacity_) {
      free_staging(data_);
      data_ = nullptr;  // stays valid if the allocation below throws
      capacity_ = 0;
      data_ = static_cast<T*>(allocate_staging(n * sizeof(T)));
      capacity_ = n;
    }
    size_ = n;
  }
  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0, capacity_ = 0;
};

}  // namespace trackcosim::gpu::detail
