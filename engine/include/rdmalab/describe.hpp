// One-line, human-readable renderings of trace events (CLI output, the app's timeline).
#pragma once

#include "rdmalab/trace.hpp"

#include <string>

namespace rdmalab {

/// "[A] ibv_reg_mr(length=64, access=LOCAL_WRITE) -> ok  lkey=0x1234 rkey=0x1234" and similar.
std::string describe(const TraceEvent& event);

} // namespace rdmalab
