// Recordings: JSON Lines trace files, read with file/line/field errors and written atomically.
#pragma once

#include "rdmalab/trace.hpp"

#include <QString>

#include <optional>
#include <vector>

namespace rdmalab::app {

struct TraceFileError {
    QString file;
    std::size_t line = 0;
    QString field;
    QString message;
    QString toString() const; ///< "FILE: line N: field 'F': message"
};

/// Reads a whole recording; stops at the first bad line and reports it.
std::optional<std::vector<TraceEvent>> readTraceFile(const QString& path, TraceFileError& error);

/// Writes events as JSON Lines to a temporary file, then renames it over `path`, so a failed save never
/// destroys an earlier recording. Returns an error message or an empty string.
QString writeTraceFile(const QString& path, const std::vector<TraceEvent>& events);

} // namespace rdmalab::app
