#pragma once
// The floating-point type of the whole framework. Double by default: the CCP solver and the
// validation tests compare to 1e-12, which single precision cannot hold. A CUDA build may opt
// into float with -DTRACKCOSIM_REAL_FLOAT for throughput studies.

namespace trackcosim {
#ifdef TRACKCOSIM_REAL_FLOAT
using real = float;
#else
using real = double;
#endif
}  // namespace trackcosim
