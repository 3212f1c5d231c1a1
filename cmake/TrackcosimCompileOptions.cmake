# Warnings and the floating-point rules that keep results identical for any thread count.
add_library(trackcosim_options INTERFACE)
add_library(trackcosim::options ALIAS trackcosim_options)
target_include_directories(trackcosim_options INTERFACE ${PROJECT_SOURCE_DIR})
target_compile_options(trackcosim_options INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -ffp-contract=off>
  # nvcc: no fused multiply-add, so GPU results round like the CPU build's.
  $<$<COMPILE_LANGUAGE:CUDA>:--fmad=false --expt-relaxed-constexpr --extended-lambda>)
