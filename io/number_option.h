#pragma once
// A number given on a command line, checked before a program uses it: CLI11 converts "nan" and
// "inf" to doubles without a word, and its own PositiveNumber lets NaN through (every comparison
// with NaN is false) and prints its range with the largest double in full, 309 digits. A number
// a program cannot use is bad input, refused with one line that names the option and the text.
// Header-only: the programs that parse command lines link CLI11, the io library does not.

#include <cmath>
#include <exception>
#include <string>

#include <CLI/CLI.hpp>

namespace trackcosim::io {

enum class NumberSign { Any, AtLeastZero, AboveZero };

/// A finite number with the sign `sign` asks for; CLI11 puts the option's name before the message.
inline CLI::Validator finite_number(NumberSign sign = NumberSign::Any) {
  const char* wanted = sign == NumberSign::AboveZero ? "a finite number > 0"
                       : sign == NumberSign::AtLeastZero ? "a finite number >= 0"
                                                         : "a finite number";
  return CLI::Validator(
      [sign, wanted](std::string& text) -> std::string {
        double value = 0;
        std::size_t used = 0;
        try {
          value = std::stod(text, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        const bool sign_ok = sign == NumberSign::Any || (sign == NumberSign::AtLeastZero ? value >= 0 : value > 0);
        if (used == 0 || used != text.size() || !std::isfinite(value) || !sign_ok)
          return std::string("must be ") + wanted + ", got " + text;
        return {};
      },
      sign == NumberSign::AboveZero ? "NUMBER > 0" : sign == NumberSign::AtLeastZero ? "NUMBER >= 0" : "NUMBER");
}

}  // namespace trackcosim::io
