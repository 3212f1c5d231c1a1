# Kernel sources are .cu files written once for both backends. The CPU build compiles them as
# C++ (g++ -x c++, Thrust's OpenMP device system); the CUDA build hands them to nvcc.
function(trackcosim_gpu_sources target)
  target_sources(${target} PRIVATE ${ARGN})
  if(NOT TRACKCOSIM_CUDA)
    set_source_files_properties(${ARGN} TARGET_DIRECTORY ${target} PROPERTIES LANGUAGE CXX)
  endif()
endfunction()
