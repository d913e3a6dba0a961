// Every file the app exports (reports, traces, CSV, PNG, SVG, saved labs) goes through one function, so
// none of them can destroy what was there: a failed save leaves the earlier file as it was.
#pragma once

#include <QByteArray>
#include <QString>

namespace rdmalab::app {

/// Writes `bytes` to `path` whole or not at all: into a temporary file in the same folder, each write
/// checked, flushed and closed, then renamed over `path`. A target that exists and is not a regular file
/// (a directory, a device such as /dev/null, a FIFO, a socket) is refused before anything is written: a
/// rename would replace the device itself. Returns an error text naming the path, or an empty string.
QString writeFileAtomically(const QString& path, const QByteArray& bytes);

} // namespace rdmalab::app
