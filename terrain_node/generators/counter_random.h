#pragma once
// Counter-based random numbers for the distributed generators: a draw is a pure function of
// (seed, a, b, c), so any rank can make any generator cell's numbers without walking a sequential
// stream through the cells before it. The mixer is splitmix64's finaliser (Steele, Lea, Flood
// 2014), a bijection on 64 bits; chaining it over the key words gives independent-looking draws
// for neighbouring keys. Integer arithmetic only, so the bits are the same on every machine.

#include <cstdint>

namespace trackcosim::terrain {

constexpr std::uint64_t splitmix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// 64 random bits for the key (seed, a, b, c).
constexpr std::uint64_t counter_bits(std::uint64_t seed, std::uint64_t a, std::uint64_t b = 0, std::uint64_t c = 0) {
  return splitmix64(splitmix64(splitmix64(splitmix64(seed) ^ a) ^ b) ^ c);
}

/// The top 53 bits as a double in [0, 1): exact.
constexpr double unit_from_bits(std::uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

constexpr double counter_unit(std::uint64_t seed, std::uint64_t a, std::uint64_t b = 0, std::uint64_t c = 0) {
  return unit_from_bits(counter_bits(seed, a, b, c));
}

}  // namespace trackcosim::terrain
