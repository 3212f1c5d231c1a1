#pragma once
// For tests of the config loaders: the message of the ConfigError that a text raises, and a
// prefix check for messages whose tail holds computed numbers.

#include <gtest/gtest.h>

#include <string>

#include "io/config_error.h"

namespace trackcosim::test {

/// The message of the io::ConfigError that `parse(text)` throws; a test failure when none.
template <typename Parse>
std::string config_error_message(Parse parse, const std::string& text) {
  try {
    parse(text);
  } catch (const io::ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ConfigError for: " << text;
  return {};
}

inline ::testing::AssertionResult starts_with(const std::string& text, const std::string& prefix) {
  if (text.starts_with(prefix)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << text << "\" does not start with \"" << prefix << "\"";
}

}  // namespace trackcosim::test
