// The verbs call behind a trace event, written as C with the real arguments (the inspector's code pane).
#pragma once

#include "rdmalab/format/trace.hpp"

#include <QString>

namespace rdmalab::app {

/// C source for the call the event records; empty when the event is not a call. Throws FieldError when a
/// field it needs as a number or flag list has another type (recordings and engine output are checked
/// first, so the views never see one: checkEventFields in tracefile.h).
QString verbsCode(const TraceEvent& event);

} // namespace rdmalab::app
