#pragma once
// Bad user input in a config or scene file, as opposed to a broken internal invariant. The
// message is written for the person who edits the file: it names the file, the JSON path of the
// key and what was expected (`scene.json: spheres[3].radius: must be > 0, got -1`), so programs
// print it as it is, on one line, and exit non-zero.

#include <stdexcept>

namespace trackcosim::io {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace trackcosim::io
