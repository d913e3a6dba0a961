// Helpers for the app's test suites (they link rdmalab_appmodel; tests/common/testutil.hpp is for all).
#pragma once

#include "testutil.hpp"
#include "tracefile.h"

#include <QString>
#include <QtGlobal>

#include <vector>

namespace rdmalab::test {

/// The events of a recording kept in tests/data (e.g. "lesson-write.jsonl"); a file that does not read
/// ends the test run with the reader's file/line/field message.
inline std::vector<TraceEvent> loadRecording(const QString& name) {
    app::TraceFileError error;
    auto events = app::readTraceFile(RDMALAB_SOURCE_DIR + QStringLiteral("/tests/data/") + name, error);
    if (!events) qFatal("%s", qPrintable(error.toString()));
    return *events;
}

} // namespace rdmalab::test
