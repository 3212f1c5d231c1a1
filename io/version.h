#pragma once
// The version the programs report with --version, taken from project(VERSION) by CMake.

#include <string_view>

namespace trackcosim::io {

inline constexpr std::string_view kTrackcosimVersion = TRACKCOSIM_VERSION;

}  // namespace trackcosim::io
