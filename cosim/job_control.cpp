#include "cosim/job_control.h"

#include "comm/mpi_session.h"
#include "comm/stop_signal.h"
#include "comm/watchdog.h"

namespace trackcosim::cosim {

static_assert(kExitPeerLost == comm::kExitPeerLost, "one exit status for a lost peer in both programs");

StopSignal::StopSignal() : signal_(std::make_unique<comm::StopSignal>()) {}

StopSignal::~StopSignal() = default;

int StopSignal::caught() const { return signal_->caught(); }

const char* signal_name(int signal) { return comm::signal_name(signal); }

int abort_all_or_return(int code) { return comm::abort_all_or_return(code); }

}  // namespace trackcosim::cosim
