#pragma once
// Numbers as text that reads back to the same bits. Output files feed regression tests and
// restarts, so "%.6g" is not enough; std::to_chars without a precision gives the shortest decimal
// that round-trips, which is also the most readable one ("0.1", not "0.10000000000000001").

#include <charconv>
#include <concepts>
#include <string>

namespace trackcosim::io {

template <typename T>
  requires std::floating_point<T> || std::integral<T>
void append_number(std::string& out, T value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

template <typename T>
  requires std::floating_point<T> || std::integral<T>
std::string number_to_string(T value) {
  std::string out;
  append_number(out, value);
  return out;
}

}  // namespace trackcosim::io
