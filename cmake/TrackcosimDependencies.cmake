# Every third-party package, found once. tools/install_deps.sh installs them on Debian 12.
# TRACKCOSIM_KERNELS_ONLY needs OpenMP and Thrust (and CUDA) only.
find_package(OpenMP REQUIRED COMPONENTS CXX)
if(NOT TRACKCOSIM_KERNELS_ONLY)
  if(TRACKCOSIM_MPI)
    find_package(MPI REQUIRED COMPONENTS CXX C)
  endif()  # else MPI::MPI_CXX is the one-process stub (comm/mpi_stub/CMakeLists.txt)
  find_package(Eigen3 3.4 REQUIRED NO_MODULE)
  find_package(nlohmann_json 3.10 REQUIRED)
  find_package(CLI11 REQUIRED)
  if(TRACKCOSIM_BUILD_TESTS)
    find_package(GTest REQUIRED)
  endif()
endif()

if(TRACKCOSIM_CUDA)
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 90)
  endif()
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  enable_language(CUDA)
  # CMake 3.25 knows no CUDA20 dialect for nvcc; the kernels need only C++17.
  set(CMAKE_CUDA_STANDARD 17)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  find_package(CUDAToolkit REQUIRED)
  # nvcc brings its own Thrust (CCCL); Debian's 1.17 is for the CPU build only.
  find_package(Thrust REQUIRED CONFIG
    HINTS ${CUDAToolkit_LIBRARY_DIR}/cmake/thrust ${CUDAToolkit_TARGET_DIR}/lib/cmake/thrust)
  thrust_create_target(trackcosim_thrust HOST CPP DEVICE CUDA)
else()
  # Debian's libthrust-dev first: a CUDA toolkit on PATH would otherwise offer its CCCL copy.
  find_package(Thrust REQUIRED CONFIG HINTS /usr/share/cmake/thrust)
  thrust_create_target(trackcosim_thrust HOST CPP DEVICE OMP)
endif()
