// One-line, human-readable renderings of trace events (CLI output, the app's timeline).
#pragma once

#include "rdmalab/format/trace.hpp"

#include <string>

namespace rdmalab {

/// "[A] ibv_reg_mr(length=64, access=LOCAL_WRITE) -> ok  lkey=0x1234 rkey=0x1234" and similar. Any field
/// is shown whatever its type, except the few it computes with (step numbers, errno, imm_data): those
/// throw FieldError (rdmalab/format/fields.hpp) when they are not integers in range.
std::string describe(const TraceEvent& event);

} // namespace rdmalab
