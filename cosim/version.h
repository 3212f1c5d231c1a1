#pragma once
// The version the programs report with --version, taken from project(VERSION) by CMake.

#include <string_view>

namespace trackcosim::cosim {

inline constexpr std::string_view kTrackcosimVersion = TRACKCOSIM_VERSION;

}  // namespace trackcosim::cosim
