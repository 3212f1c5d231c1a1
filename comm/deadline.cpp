#include "comm/deadline.h"

#include <cstdio>
#include <thread>

namespace trackcosim::comm {

std::string Deadline::allowance() const {
  char text[32];
  std::snprintf(text, sizeof text, "%g s", seconds_);
  return text;
}

void PollBackoff::wait() {
  if (++polls_ > 1000) std::this_thread::sleep_for(std::chrono::microseconds(100));
}

}  // namespace trackcosim::comm
