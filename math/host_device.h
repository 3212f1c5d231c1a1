#pragma once
// One kernel source, two backends: under nvcc the functors run on the GPU, under g++ with
// Thrust's OpenMP device system the same functors run on CPU threads and the CUDA
// qualifiers expand to nothing.

#if defined(__CUDACC__)
#define TRACKCOSIM_HD __host__ __device__
#else
#define TRACKCOSIM_HD
#endif
