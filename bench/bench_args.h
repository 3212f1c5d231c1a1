#pragma once
// The benchmarks' small command lines: `--name value` flags, comma-separated lists, bare switches.

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

namespace trackcosim::bench {

/// "a,b,,c" -> {"a", "b", "c"}.
inline std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

/// The value after the last `name` (a later flag overrides an earlier one, as scripts that add
/// to a common list expect), or `fallback` when the flag is absent.
inline const char* flag(int argc, char** argv, const char* name, const char* fallback = nullptr) {
  const char* value = fallback;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], name) == 0) value = argv[i + 1];
  return value;
}

/// Whether the bare switch `name` is given.
inline bool has(int argc, char** argv, const char* name) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], name) == 0) return true;
  return false;
}

/// `--help` or `-h` anywhere on the line: prints `usage` and exits 0, before any work (and before
/// MPI starts): every bench program calls this first, so asking how to run one never runs it.
inline void help_exits(int argc, char** argv, const char* usage) {
  if (!has(argc, argv, "--help") && !has(argc, argv, "-h")) return;
  std::fputs(usage, stdout);
  std::exit(0);
}

}  // namespace trackcosim::bench
